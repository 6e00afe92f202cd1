// The CardClaim aggregate, one stream per card number (named by a keyed digest of the number,
// `card-hmac-…`, so the log never holds a number in a stream name): it makes a card number
// unique, as the email claim makes an address unique. Issuing a card claims its number in the
// same atomic append as the account's `user.card-issued`, so two members drawing one number at
// once cannot both get it: the second draws again. The desk finds a member by card through it.

/// What happened to a card number. Stored in the log; never change a case's meaning.
public enum CardClaimEvent: Equatable, Sendable {
    case claimed(CardClaimed)
}

/// How the log stores each case: its name, written once here, and its payload.
extension CardClaimEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case claimed = "card.claimed.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .claimed(let e): (.claimed, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> CardClaimEvent {
        switch type {
        case .claimed: .claimed(try payload.decode())
        }
    }

    /// The card number is the member's personal data.
    public var personalData: PersonalData? {
        switch self {
        case .claimed(let e): PersonalData(subject: e.user, fields: ["card"])
        }
    }
}

/// A member's card took this number (personal data, sealed with the member's key).
public struct CardClaimed: Equatable, Sendable, Codable {
    public let card: Personal<CardNumber>
    public let user: UserID
    public init(card: CardNumber, user: UserID) {
        self.card = .known(card)
        self.user = user
    }
}

/// Whose card has this number, if anyone's.
public struct CardClaimState: Equatable, Sendable {
    public var owner: UserID?
    public init(owner: UserID? = nil) { self.owner = owner }
}

/// What can be asked of a card number.
public enum CardClaimCommand: Equatable, Sendable {
    /// `user`'s new card takes the number.
    case claim(CardNumber, by: UserID)
}

/// Why a card number cannot be claimed.
public enum CardClaimRejection: Error, Equatable, Sendable {
    /// Another member's card has this number.
    case taken
}

/// The CardClaim aggregate's decisions and fold.
public enum CardClaimAggregate: Aggregate {
    public static let initial = CardClaimState()

    public static func evolve(_ state: CardClaimState, _ event: CardClaimEvent) -> CardClaimState {
        switch event {
        case .claimed(let e): CardClaimState(owner: e.user)
        }
    }

    public static func decide(_ command: CardClaimCommand, _ state: CardClaimState) throws(CardClaimRejection) -> [CardClaimEvent] {
        switch command {
        case .claim(let card, let user):
            if state.owner == user { return [] }
            if let rejection = oneCardPerNumber(state) { throw rejection }
            return [.claimed(CardClaimed(card: card, user: user))]
        }
    }

    /// The rule: a card number belongs to one member's card.
    static func oneCardPerNumber(_ state: CardClaimState) -> CardClaimRejection? {
        state.owner == nil ? nil : .taken
    }
}
