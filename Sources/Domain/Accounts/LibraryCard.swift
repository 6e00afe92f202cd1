// A member's library card, as the User aggregate records it: issued once, at registration (or,
// for members registered before cards, at their next login or by `shelfmark user issue-cards`).
// Its number is claimed in the same append (`CardClaimAggregate`), which makes it unique.

/// An account's library card was issued. The number is the member's personal data: sealed with
/// their key, it reads as erased once they close the account.
public struct CardIssued: Equatable, Sendable, Codable {
    public let user: UserID
    public let card: Personal<CardNumber>
    public init(user: UserID, card: CardNumber) {
        self.user = user
        self.card = .known(card)
    }
}

extension UserAggregate {
    /// One card per account: issued when it has none, else nothing (a repeat decides nothing).
    static func issueCard(_ card: CardNumber, _ account: Account) -> [UserEvent] {
        account.card == nil ? [.cardIssued(CardIssued(user: account.id, card: card))] : []
    }
}
