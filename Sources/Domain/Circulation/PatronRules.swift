import Foundation

/// A request to borrow as the rules see it: the new loans (loan id per book), the member's
/// active loans, the time and the policy.
public struct Borrowing: Sendable {
    public let loans: [LoanID: BookID]
    public let state: PatronState
    public let now: Date
    public let policy: LoanPolicy
    public init(loans: [LoanID: BookID], state: PatronState, now: Date, policy: LoanPolicy) {
        self.loans = loans
        self.state = state
        self.now = now
        self.policy = policy
    }
}

/// A request to place a hold as the patron's rules see it: the hold, the member's loans and
/// holds, the time and the policy.
public struct HoldRequest: Sendable {
    public let hold: PatronHold
    public let state: PatronState
    public let now: Date
    public let policy: LoanPolicy
    public init(hold: PatronHold, state: PatronState, now: Date, policy: LoanPolicy) {
        self.hold = hold
        self.state = state
        self.now = now
        self.policy = policy
    }
}

/// The patron's rules, one named function each: a rejection, or nil when the rule holds.
/// `PatronAggregate.decide` runs `all` for a borrowing and `placingHold` for a hold, in order,
/// and the first rejection is thrown; a new rule is one more function in a list.
enum PatronRules {
    typealias Rule = @Sendable (Borrowing) -> PatronRejection?
    typealias HoldRule = @Sendable (HoldRequest) -> PatronRejection?

    static let all: [Rule] = [withinOneRequest, noBookTwice, overdueBlock, loanLimit]
    static let placingHold: [HoldRule] = [notOnLoan, overdueBlocksHolds, holdLimit]

    /// Throws the first rejection of `all`.
    static func check(_ borrowing: Borrowing) throws(PatronRejection) {
        for rule in all { if let rejection = rule(borrowing) { throw rejection } }
    }

    /// Throws the first rejection of `placingHold`.
    static func check(_ request: HoldRequest) throws(PatronRejection) {
        for rule in placingHold { if let rejection = rule(request) { throw rejection } }
    }

    /// No more books in one request than a member may have at all.
    static func withinOneRequest(_ b: Borrowing) -> PatronRejection? {
        b.loans.count > b.policy.maxActiveLoans ? .tooManyInOneRequest(max: b.policy.maxActiveLoans) : nil
    }

    /// A book asked for twice, or already borrowed by the member.
    static func noBookTwice(_ b: Borrowing) -> PatronRejection? {
        var seen: Set<BookID> = []
        return (Array(b.loans.values) + b.state.active.values.map(\.book)).first { !seen.insert($0).inserted }.map { .duplicateBook($0) }
    }

    /// The overdue block: a member with an overdue loan borrows nothing until it is returned.
    static func overdueBlock(_ b: Borrowing) -> PatronRejection? { blocked(b.state, at: b.now) }

    /// The loan limit: active loans and the request together, at most `maxActiveLoans`.
    static func loanLimit(_ b: Borrowing) -> PatronRejection? {
        let active = b.state.active.count
        guard active + b.loans.count > b.policy.maxActiveLoans else { return nil }
        return .limitReached(max: b.policy.maxActiveLoans, active: active, requested: b.loans.count)
    }

    /// No hold on a book the member has on loan.
    static func notOnLoan(_ r: HoldRequest) -> PatronRejection? {
        r.state.active.values.contains { $0.book == r.hold.book } ? .alreadyBorrowed(r.hold.book) : nil
    }

    /// The overdue block also stops holds: the member returns the overdue books first.
    static func overdueBlocksHolds(_ r: HoldRequest) -> PatronRejection? { blocked(r.state, at: r.now) }

    /// The hold limit: at most `maxActiveHolds` holds, waiting or ready.
    static func holdLimit(_ r: HoldRequest) -> PatronRejection? {
        r.state.holds.count >= r.policy.maxActiveHolds ? .holdLimitReached(max: r.policy.maxActiveHolds) : nil
    }

    /// The overdue block, once for borrowing and holds: the overdue loans, or nil when none is.
    private static func blocked(_ state: PatronState, at now: Date) -> PatronRejection? {
        let late = state.overdue(at: now)
        return late.isEmpty ? nil : .blockedByOverdue(loans: late)
    }
}

/// Why a member may not borrow. Each carries what the member needs to know; the message
/// catalogue (`Application/Messages`) says it.
public enum PatronRejection: Error, Equatable, Sendable {
    case limitReached(max: Int, active: Int, requested: Int)
    case tooManyInOneRequest(max: Int)
    /// The overdue loans, oldest due first, with their books and due dates.
    case blockedByOverdue(loans: [PatronLoan])
    case duplicateBook(BookID)
    /// A hold on a book the member has on loan.
    case alreadyBorrowed(BookID)
    /// The member has as many holds as allowed.
    case holdLimitReached(max: Int)
}
