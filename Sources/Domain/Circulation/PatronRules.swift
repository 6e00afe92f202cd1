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

/// The borrowing rules, one named function each: a rejection, or nil when the rule holds.
/// `PatronAggregate.decide` runs `all`, in order, and the first rejection is thrown; a new rule is
/// one more function in that list.
enum PatronRules {
    typealias Rule = @Sendable (Borrowing) -> PatronRejection?

    static let all: [Rule] = [withinOneRequest, noBookTwice, overdueBlock, loanLimit]

    /// Throws the first rejection of `all`.
    static func check(_ borrowing: Borrowing) throws(PatronRejection) {
        for rule in all { if let rejection = rule(borrowing) { throw rejection } }
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
    static func overdueBlock(_ b: Borrowing) -> PatronRejection? {
        let late = b.state.overdue(at: b.now)
        return late.isEmpty ? nil : .blockedByOverdue(loans: late)
    }

    /// The loan limit: active loans and the request together, at most `maxActiveLoans`.
    static func loanLimit(_ b: Borrowing) -> PatronRejection? {
        let active = b.state.active.count
        guard active + b.loans.count > b.policy.maxActiveLoans else { return nil }
        return .limitReached(max: b.policy.maxActiveLoans, active: active, requested: b.loans.count)
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
}
