import Foundation

// Closing an account, with erasure: a member with no active loans or holds closes their account,
// or a librarian closes it for them. `user.closed` erases the member's personal data: the store
// deletes their key in the same transaction (crypto-shredding), so every field sealed with it
// reads as erased from then on, while the chain, over the sealed text, still verifies.

/// The account was closed; its personal data is erased with this event.
public struct UserClosed: Equatable, Sendable, Codable {
    public let user: UserID
    public init(user: UserID) { self.user = user }
}

extension UserEvent {
    /// `user.closed` erases its member.
    public var erases: UserID? {
        if case .closed(let e) = self { e.user } else { nil }
    }
}

/// What a closing rests on besides the account itself, as the use case read it: the member's
/// patron stream (their active loans and holds) and how many librarians the library has besides them.
public struct ClosingFacts: Equatable, Sendable {
    public let patron: PatronState
    public let otherLibrarians: Int
    public init(patron: PatronState, otherLibrarians: Int) {
        self.patron = patron
        self.otherLibrarians = otherLibrarians
    }
}

/// Why an account cannot be closed.
public enum ClosingRejection: Error, Equatable, Sendable {
    /// Books are still on loan to the member (oldest due first): they are returned first.
    case activeLoans([PatronLoan])
    /// The member waits for books: their holds are cancelled first.
    case activeHolds([PatronHold])
    /// The account is the library's last librarian (`UserRules.lastLibrarian`).
    case lastLibrarian
}

/// The closing rules, one named function each: a rejection, or nil when the rule holds.
public enum ClosingRules {
    public typealias Rule = @Sendable (Account, ClosingFacts) -> ClosingRejection?

    /// Every rule, in the order a refusal names them.
    public static let all: [Rule] = [noActiveLoans, noActiveHolds, keepsALibrarian]

    /// No book is on loan to the member.
    public static let noActiveLoans: Rule = { _, facts in
        facts.patron.active.isEmpty
            ? nil : .activeLoans(facts.patron.active.values.sorted { ($0.dueAt, $0.loan.description) < ($1.dueAt, $1.loan.description) })
    }

    /// The member waits for no book.
    public static let noActiveHolds: Rule = { _, facts in
        facts.patron.holds.isEmpty ? nil : .activeHolds(facts.patron.holds.values.sorted { $0.hold.description < $1.hold.description })
    }

    /// The library keeps a librarian.
    public static let keepsALibrarian: Rule = { account, facts in
        UserRules.lastLibrarian(account, staysLibrarian: false, otherLibrarians: facts.otherLibrarians) == nil ? nil : .lastLibrarian
    }
}

extension UserAggregate {
    /// Decides closing the account: `user.closed` when every closing rule holds, nothing when it is
    /// closed already (or was never registered: the use case says "not found" first).
    public static func decideClose(_ facts: ClosingFacts, _ state: UserState) throws(ClosingRejection) -> [UserEvent] {
        guard case .registered(let account) = state else { return [] }
        for rule in ClosingRules.all {
            if let rejection = rule(account, facts) { throw rejection }
        }
        return [.closed(UserClosed(user: account.id))]
    }
}
