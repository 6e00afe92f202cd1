import Domain
import Foundation

/// Lends several books to the member at once, all or nothing: the member's stream, every book's
/// stream and every new loan's stream go in one atomic append, retried on a concurrent change,
/// so no copy is ever lent twice and no member passes the limit.
public struct BorrowBooks: Sendable {
    let deps: CirculationDependencies

    public func execute(_ books: [BookID], by principal: Principal) async throws -> [LoanSummary] {
        let (member, _) = try Authorization.user(.borrowBooks, by: principal)
        return try await lend(books, to: member, by: principal)
    }

    /// Lends `books` to `member`, as asked by `principal` (the member, or a librarian at the desk,
    /// whom the log records as the events' actor): the same rules whoever asks.
    func lend(_ books: [BookID], to member: UserID, by principal: Principal) async throws -> [LoanSummary] {
        guard !books.isEmpty else { throw InvalidInput("bookIds", .tooFew(min: 1)) }
        // Read once a copy can be lent (a refusal needs no name), and once for every attempt.
        var account: AccountSummary??
        // New ids, made once: a retry lends under the same ids (nothing of a failed attempt was written).
        let loans = books.map { ($0, LoanID(deps.runner.ids.next())) }
        try await deps.runner.transact(by: principal, anticipating: true) { transaction in
            let now = deps.now
            let dueAt = deps.policy.due(from: now)
            let patron = try await transaction.load(PatronAggregate.self, .patron(member))
            let borrowing = PatronCommand.borrow(
                member: member, loans: Dictionary(loans.map { ($1, $0) }, uniquingKeysWith: { a, _ in a }), now: now, dueAt: dueAt,
                policy: deps.policy)
            do throws(PatronRejection) { try transaction.decide(borrowing, on: patron) } catch {
                throw try await deps.titled(error, transaction)
            }
            for (bookID, loanID) in loans {
                let book = try await transaction.load(BookAggregate.self, .book(bookID))
                guard case .inCatalogue(let record) = book.state else { throw NotFound(.book, bookID.description) }
                try await deps.lendPast(holdsOn: record, to: member, loanID, &transaction)
                try transaction.decide(.lend(loanID), on: book) { BookRefused(bookID, $0, in: book.state) }
                if account == nil { account = try await deps.accounts.account(member) }
                let opened = LoanOpened(
                    loan: loanID, book: bookID, bookTitle: record.details.title, borrower: member,
                    borrowerName: account??.displayName ?? member.description, lentAt: now, dueAt: dueAt)
                try transaction.decide(.open(opened), on: Loaded<LoanAggregate>.new(.loan(loanID)), else: LoanRefused.init)
            }
        }
        var summaries: [LoanSummary] = []
        for (_, id) in loans { summaries.append(try await deps.summary(id)) }
        return summaries
    }
}

/// A librarian lends a copy to a named borrower without an account (walk-in checkout), within
/// the walk-in limit per name (`LoanPolicy.maxWalkInLoans`; names compared by `WalkInName.key`):
/// the name's stream, the book's and the new loan's go in one atomic append.
public struct CheckoutWalkIn: Sendable {
    let deps: CirculationDependencies

    /// Lends a copy of the book under the name. With `unlessLentAlready`, a request repeating one
    /// that took effect (`WalkInRepeat`) answers that loan and records nothing.
    public func execute(
        _ bookID: BookID, borrowerName raw: String, unlessLentAlready: Bool = false, by principal: Principal
    ) async throws -> LoanSummary {
        try Authorization.require(.lendWalkIn, by: principal)
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !FreeText.looksEmpty(name) else { throw InvalidInput("borrowerName", .required) }
        guard !FreeText.isTooLong(name, max: 100) else { throw InvalidInput("borrowerName", .tooLong(max: 100)) }
        if let problem = FreeText.problem(name, field: "borrowerName") { throw InvalidInput([problem]) }
        if let problem = WalkInName.problem(name) { throw InvalidInput("borrowerName", problem) }
        let loanID = LoanID(deps.runner.ids.next())
        let lent = try await deps.runner.transact(by: principal) { transaction in
            let book = try await transaction.load(BookAggregate.self, .book(bookID))
            // Read again at each attempt, and after the book's stream: the read model is written in
            // the transaction that appends, so a first attempt committed before that load is seen
            // here, and one committed after it makes this attempt's append conflict and retry.
            if unlessLentAlready,
                let open = WalkInRepeat.openLoan(try await deps.loans.loans(LoanFilter(book: bookID, includeReturned: true)), to: name)
            {
                return open.id
            }
            let now = deps.now
            guard case .inCatalogue(let record) = book.state else { throw NotFound(.book, bookID.description) }
            if let open = try await deps.lendWalkIn(
                WalkInLoan(borrowerName: name, loan: loanID, book: bookID), title: record.details.title,
                answeringRepeat: unlessLentAlready, &transaction)
            {
                return open
            }
            let opened = LoanOpened(
                loan: loanID, book: bookID, bookTitle: record.details.title, borrower: nil, borrowerName: name, lentAt: now,
                dueAt: deps.policy.due(from: now))
            try await deps.lendPast(holdsOn: record, to: nil, loanID, &transaction)
            try transaction.decide(.lend(loanID), on: book) { BookRefused(bookID, $0, in: book.state) }
            try transaction.decide(.open(opened), on: Loaded<LoanAggregate>.new(.loan(loanID)), else: LoanRefused.init)
            return loanID
        }
        return try await deps.summary(lent)
    }
}

/// The rule for a repeated walk-in checkout: the book's last checkout (its latest loans, returned
/// or not) is still open and was lent at the desk under the same name, as `WalkInName.key`
/// compares names. A client retrying a checkout then gets that loan instead of a second copy.
enum WalkInRepeat {
    /// The open walk-in loan to `name` among the book's latest `loans`, or nil.
    static func openLoan(_ loans: [LoanSummary], to name: String) -> LoanSummary? {
        guard let last = loans.map(\.lentAt).max() else { return nil }
        let key = WalkInName.key(name)
        return loans.first { $0.lentAt == last && $0.returnedAt == nil && $0.borrower == nil && WalkInName.key($0.borrowerName) == key }
    }
}

extension CirculationDependencies {
    /// The book's line decides a loan first: a copy kept for a member goes to that member alone
    /// (their hold is then fulfilled), and the line is expected unchanged at the append.
    func lendPast(holdsOn book: CataloguedBook, to member: UserID?, _ loan: LoanID, _ transaction: inout Transaction) async throws {
        let line = try await transaction.load(HoldQueueAggregate.self, .holds(book.id))
        transaction.expectUnchanged(line)
        let command = HoldCommand.borrow(member: member, loan: loan, onShelf: book.available, now: now)
        try transaction.decide(command, on: line) { LoanRefused($0, titles: [book.id: book.details.title]) }
    }
}
