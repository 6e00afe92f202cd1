import Domain
import Foundation

/// A circulation rule refused the request; names the books it is about by title when known.
public struct LoanRefused: MessageConvertible, Equatable, Sendable {
    /// Which aggregate refused: the loan itself, the member's patron record (what they may borrow
    /// or hold), the book's waiting list, or a walk-in borrower's loans.
    public enum Rejection: Equatable, Sendable {
        case loan(LoanRejection)
        case patron(PatronRejection)
        case hold(HoldRejection)
        case walkIn(WalkInRejection)
    }

    public let rejection: Rejection
    /// The titles of the books the refusal is about, as the use case loaded them.
    public let titles: [BookID: String]
    /// The title of the loan's book, for a loan's own refusals.
    public let loanTitle: String?
    /// The member's name when someone else asked for them (a librarian at the desk); nil when the
    /// member asked, and is told "you".
    public let borrower: String?
    /// Whether the member asked for a hold rather than a loan: a patron's refusal (books overdue)
    /// is then a hold refused (found by an outside test: a hold refused for an overdue book was
    /// answered "Loan refused").
    public private(set) var forHold = false

    /// This refusal, of a hold.
    public func ofAHold() -> LoanRefused {
        var refused = self
        refused.forHold = true
        return refused
    }

    public init(_ rejection: LoanRejection) { self.init(.loan(rejection), titles: [:], loanTitle: nil) }
    public init(_ rejection: PatronRejection) { self.init(.patron(rejection), titles: [:], loanTitle: nil) }
    /// A loan's refusal, naming its book.
    public init(_ rejection: LoanRejection, title: String?) { self.init(.loan(rejection), titles: [:], loanTitle: title) }
    /// A patron's refusal, naming the books it is about.
    public init(_ rejection: PatronRejection, titles: [BookID: String]) { self.init(.patron(rejection), titles: titles, loanTitle: nil) }
    /// A waiting list's refusal, naming its book.
    public init(_ rejection: HoldRejection, titles: [BookID: String] = [:]) { self.init(.hold(rejection), titles: titles, loanTitle: nil) }
    /// A walk-in borrower's refusal.
    public init(_ rejection: WalkInRejection, titles: [BookID: String] = [:]) {
        self.init(.walkIn(rejection), titles: titles, loanTitle: nil)
    }
    init(_ rejection: Rejection, titles: [BookID: String], loanTitle: String?, borrower: String? = nil) {
        self.rejection = rejection
        self.titles = titles
        self.loanTitle = loanTitle
        self.borrower = borrower
    }

    /// The same refusal, said of `member` (by name) to the librarian who asked for them.
    func said(of member: String) -> LoanRefused {
        LoanRefused(rejection, titles: titles, loanTitle: loanTitle, borrower: member)
    }

    public var message: Message {
        switch rejection {
        case .loan(.noSuchLoan): .notFound(.loan, id: "")
        case .loan(.alreadyReturned): .loanAlreadyReturned(title: loanTitle)
        case .loan(.renewalLimitReached(let max)): .renewalLimitReached(title: loanTitle, max: max)
        case .loan(.overdueCannotBeRenewed): .overdueCannotBeRenewed(title: loanTitle)
        case .loan(.idInUse): .loanIDInUse
        case .loan(.othersWaiting(let count)): .othersWaiting(title: loanTitle, count: count)
        case .patron(let rejection) where borrower != nil: message(rejection, member: borrower ?? "")
        case .patron(.limitReached(let max, let active, let requested)): .loanLimitReached(max: max, active: active, requested: requested)
        case .patron(.tooManyInOneRequest(let max)): .tooManyInOneRequest(max: max)
        case .patron(.blockedByOverdue(let loans)): .blockedByOverdue(overdue(loans))
        case .patron(.duplicateBook(let book)): .bookAskedTwice(BookName(book, title: titles[book]))
        case .patron(.alreadyBorrowed(let book)): .holdOnBorrowedBook(name(book))
        case .patron(.holdLimitReached(let max)): .holdLimitReached(max: max)
        case .hold(.copyOnShelf(let book, let available)): .copyOnShelf(name(book), available: available)
        case .hold(.alreadyHolding(let book, let position)): .alreadyHolding(name(book), position: position)
        case .hold(.setAsideForOthers(let book, let count)): .copiesKeptForOthers(name(book), count: count)
        case .hold(.copiesSetAside(let book, let count)): .copiesKeptCannotGo(name(book), count: count)
        case .hold(.noSuchHold): .notFound(.hold, id: "")
        case .hold(.idInUse): .holdIDInUse
        case .walkIn(.limitReached(let name, let max, let active)): .walkInLimitReached(name: name, max: max, active: active)
        case .walkIn(.alreadyHasBook(let name, let book)): .walkInHasBookAlready(name: name, self.name(book))
        }
    }

    /// A patron's refusal said to the librarian lending to `member` at the desk.
    private func message(_ rejection: PatronRejection, member: String) -> Message {
        switch rejection {
        case .limitReached(let max, let active, let requested):
            .memberLoanLimitReached(member: member, max: max, active: active, requested: requested)
        case .blockedByOverdue(let loans): .memberBlockedByOverdue(member: member, overdue(loans))
        case .duplicateBook(let book): .memberHasBookAlready(member: member, name(book))
        case .tooManyInOneRequest(let max): .tooManyInOneRequest(max: max)
        case .alreadyBorrowed(let book): .holdOnBorrowedBook(name(book))
        case .holdLimitReached(let max): .holdLimitReached(max: max)
        }
    }

    private func overdue(_ loans: [PatronLoan]) -> [OverdueBook] { loans.map { OverdueBook(title: titles[$0.book], dueAt: $0.dueAt) } }

    private func name(_ book: BookID) -> BookName { BookName(book, title: titles[book]) }
}

/// What the circulation use cases need.
public struct CirculationDependencies: Sendable {
    let runner: CommandRunner
    let loans: any LoanRegister
    let notices: any NoticeBoard
    let holds: any HoldRegister
    let accounts: any Accounts
    let policy: LoanPolicy

    public init(
        runner: CommandRunner, loans: any LoanRegister, notices: any NoticeBoard, holds: any HoldRegister, accounts: any Accounts,
        policy: LoanPolicy = LoanPolicy()
    ) {
        self.runner = runner
        self.loans = loans
        self.notices = notices
        self.holds = holds
        self.accounts = accounts
        self.policy = policy
    }

    var now: Date { runner.clock.now() }

    /// The loan, as the read model has it after a change.
    func summary(_ id: LoanID) async throws -> LoanSummary {
        guard let loan = try await loans.loan(id) else { throw NotFound(.loan, id.description) }
        return loan
    }

    /// Loads a loan the principal may act on: its borrower, a librarian or the operator.
    func loadLoan(_ id: LoanID, by principal: Principal) async throws -> (Loaded<LoanAggregate>, LoanRecord) {
        let loaded = try await runner.load(LoanAggregate.self, .loan(id))
        guard let loan = loaded.state.record else { throw NotFound(.loan, id.description) }
        // Another member's loan is "not found", like an unknown one: its existence is not theirs to learn.
        guard Authorization.mayActOn(ownedBy: loan.opened.borrower, by: principal) else { throw NotFound(.loan, id.description) }
        return (loaded, loan)
    }

    /// The patron's refusal, naming the books it is about by title: the overdue loans' books
    /// (as their loans recorded them) or the book asked for twice or already borrowed.
    func titled(_ rejection: PatronRejection, _ transaction: Transaction) async throws -> LoanRefused {
        var transaction = transaction  // the titles name what was refused; they decide nothing
        var titles: [BookID: String] = [:]
        switch rejection {
        case .blockedByOverdue(let loans):
            for loan in loans {
                let record = try await transaction.load(LoanAggregate.self, .loan(loan.loan)).state.record
                titles[loan.book] = record?.opened.bookTitle
            }
        case .duplicateBook(let book), .alreadyBorrowed(let book):
            titles[book] = try await transaction.load(BookAggregate.self, .book(book)).state.title
        case .limitReached, .tooManyInOneRequest, .holdLimitReached: break
        }
        return LoanRefused(rejection, titles: titles)
    }

    /// The book's line after a copy came back to its shelf (a return, copies added): each copy
    /// kept for nobody is set aside for the next waiting member, in the same append. The line is
    /// expected unchanged even when nobody waits, so a hold placed meanwhile is served on retry.
    @discardableResult
    func shelve(_ book: BookID, onShelf: Int, _ transaction: inout Transaction) async throws -> [HoldID] {
        let line = try await transaction.load(HoldQueueAggregate.self, .holds(book))
        transaction.expectUnchanged(line)
        let events = try transaction.decide(.shelve(onShelf: onShelf, now: now, policy: policy), on: line) { LoanRefused($0) }
        return events.compactMap { if case .setAside(let e) = $0 { e.hold } else { nil } }
    }
}

/// The circulation use cases, as the CLI and the HTTP API both call them.
public struct CirculationUseCases: Sendable {
    public let borrow: BorrowBooks
    public let giveBack: ReturnLoan
    public let renew: RenewLoan
    public let renewAll: RenewAllLoans
    public let checkout: CheckoutWalkIn
    public let list: ListLoans
    public let scan: ScanNotices
    public let notices: MemberNotices
    public let holds: HoldUseCases

    public init(_ deps: CirculationDependencies) {
        borrow = BorrowBooks(deps: deps)
        giveBack = ReturnLoan(deps: deps)
        renew = RenewLoan(deps: deps)
        renewAll = RenewAllLoans(deps: deps)
        checkout = CheckoutWalkIn(deps: deps)
        list = ListLoans(deps: deps)
        scan = ScanNotices(deps: deps)
        notices = MemberNotices(deps: deps)
        holds = HoldUseCases(deps)
    }
}
