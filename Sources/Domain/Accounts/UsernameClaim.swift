import Foundation

// The UsernameClaim aggregate, one stream per username: it makes a username unique (claiming it
// is part of the change's atomic append, as for email addresses), so two clients can never both
// take one name.

public enum UsernameClaimEvent: Equatable, Sendable {
    case claimed(UsernameClaimed)
    case released(UsernameReleased)
}

/// How the log stores each case: its name, written once here, and its payload.
extension UsernameClaimEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case claimed = "username.claimed.v1"
        case released = "username.released.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .claimed(let e): (.claimed, e)
        case .released(let e): (.released, e)
        }
    }

    public var personalData: PersonalData? {
        switch self {
        case .claimed(let e): PersonalData(subject: e.user, fields: ["username"])
        case .released(let e): PersonalData(subject: e.user, fields: ["username"])
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> UsernameClaimEvent {
        switch type {
        case .claimed: .claimed(try payload.decode())
        case .released: .released(try payload.decode())
        }
    }
}

/// An account took this username (personal data: erased when the account closes).
public struct UsernameClaimed: Equatable, Sendable, Codable {
    public let username: Personal<Username>
    public let user: UserID
    public init(username: Username, user: UserID) {
        self.username = .known(username)
        self.user = user
    }
}

/// The account that had this username gave it up; anyone may claim it now.
public struct UsernameReleased: Equatable, Sendable, Codable {
    public let username: Personal<Username>
    public let user: UserID
    public init(username: Username, user: UserID) {
        self.username = .known(username)
        self.user = user
    }
}

public struct UsernameClaimState: Equatable, Sendable {
    public var owner: UserID?
    public init(owner: UserID? = nil) {
        self.owner = owner
    }
}

public enum UsernameClaimCommand: Equatable, Sendable {
    case claim(Username, by: UserID)
    /// Gives the name up, when `by` has it (else nothing to do).
    case release(Username, by: UserID)
}

public enum UsernameClaimRejection: Error, Equatable, Sendable {
    /// Another account has this username.
    case taken
}

public enum UsernameClaimAggregate: Aggregate {
    public static let initial = UsernameClaimState()

    public static func evolve(_ state: UsernameClaimState, _ event: UsernameClaimEvent) -> UsernameClaimState {
        switch event {
        case .claimed(let e): UsernameClaimState(owner: e.user)
        case .released: UsernameClaimState()
        }
    }

    public static func decide(_ command: UsernameClaimCommand, _ state: UsernameClaimState) throws(UsernameClaimRejection)
        -> [UsernameClaimEvent]
    {
        switch command {
        case .claim(let name, let user):
            if state.owner == user { return [] }
            if state.owner != nil { throw .taken }
            return [.claimed(UsernameClaimed(username: name, user: user))]
        case .release(let name, let user):
            return state.owner == user ? [.released(UsernameReleased(username: name, user: user))] : []
        }
    }
}
