import Foundation

// The EmailClaim aggregate, one stream per normalised address: it makes an address unique
// (claiming it is part of the signup's atomic append) and keeps the trail of logins to the
// account that has it. Failed logins to addresses without an account are not events: they
// are counted outside the log, so nobody can grow the log by guessing addresses.

public enum EmailClaimEvent: Equatable, Sendable {
    case claimed(EmailClaimed)
    case loginFailed(LoginAttempted)
    case loginSucceeded(LoginAttempted)
    case released(EmailReleased)
}

/// How the log stores each case: its name, written once here, and its payload.
extension EmailClaimEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case claimed = "email.claimed.v1"
        case loginFailed = "email.login-failed.v1"
        case loginSucceeded = "email.login-succeeded.v1"
        case released = "email.released.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .claimed(let e): (.claimed, e)
        case .loginFailed(let e): (.loginFailed, e)
        case .loginSucceeded(let e): (.loginSucceeded, e)
        case .released(let e): (.released, e)
        }
    }

    public var personalData: PersonalData? {
        switch self {
        case .claimed(let e): PersonalData(subject: e.user, fields: ["email"])
        case .loginFailed(let e), .loginSucceeded(let e): e.user.map { PersonalData(subject: $0, fields: ["email"]) }
        case .released(let e): PersonalData(subject: e.user, fields: ["email"])
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> EmailClaimEvent {
        switch type {
        case .claimed: .claimed(try payload.decode())
        case .loginFailed: .loginFailed(try payload.decode())
        case .loginSucceeded: .loginSucceeded(try payload.decode())
        case .released: .released(try payload.decode())
        }
    }
}

/// An account took this address (personal data: erased when the account closes).
public struct EmailClaimed: Equatable, Sendable, Codable {
    public let email: Personal<EmailAddress>
    public let user: UserID
    public init(email: EmailAddress, user: UserID) {
        self.email = .known(email)
        self.user = user
    }
}

/// The account that had this address gave it up (it took another); anyone may claim it now.
public struct EmailReleased: Equatable, Sendable, Codable {
    public let email: Personal<EmailAddress>
    public let user: UserID
    public init(email: EmailAddress, user: UserID) {
        self.email = .known(email)
        self.user = user
    }
}

/// Someone tried to log in with this address. `user` is the account that has it (recorded since
/// personal data is sealed; older events have none and hold the address in clear).
public struct LoginAttempted: Equatable, Sendable, Codable {
    public let email: Personal<EmailAddress>
    public let user: UserID?
    public let at: Date
    public init(email: EmailAddress, user: UserID? = nil, at: Date) {
        self.email = .known(email)
        self.user = user
        self.at = at
    }
}

public struct EmailClaimState: Equatable, Sendable {
    public var owner: UserID?
    public init(owner: UserID? = nil) {
        self.owner = owner
    }
}

/// The login throttle: `maxFailures` failures within `window` close the door until the window ends.
/// It is kept per address and client (the use case counts the failures outside the log), so a
/// stranger's failures never lock the owner out from another place.
public struct LoginThrottle: Equatable, Sendable {
    public var maxFailures = 5
    public var window: TimeInterval = 15 * 60
    public init(maxFailures: Int = 5, window: TimeInterval = 15 * 60) {
        self.maxFailures = maxFailures
        self.window = window
    }

    /// When logins open again after these failures (oldest first), or nil when they are open now.
    public func closedUntil(_ failures: [Date], now: Date) -> Date? {
        let recent = failures.filter { now.timeIntervalSince($0) < window }
        guard recent.count >= maxFailures else { return nil }
        return recent[recent.count - maxFailures].addingTimeInterval(window)
    }
}

public enum EmailClaimCommand: Equatable, Sendable {
    case claim(EmailAddress, by: UserID)
    case recordLogin(EmailAddress, succeeded: Bool, at: Date)
    /// Gives the address up, when `by` has it (else nothing to do).
    case release(EmailAddress, by: UserID)
}

public enum EmailClaimRejection: Error, Equatable, Sendable {
    /// Another account has this address.
    case taken
}

public enum EmailClaimAggregate: Aggregate {
    public static let initial = EmailClaimState()

    public static func evolve(_ state: EmailClaimState, _ event: EmailClaimEvent) -> EmailClaimState {
        var state = state
        switch event {
        case .claimed(let e): state.owner = e.user
        case .released: state.owner = nil
        case .loginFailed, .loginSucceeded: break  // the audit trail of an account's logins
        }
        return state
    }

    public static func decide(_ command: EmailClaimCommand, _ state: EmailClaimState) throws(EmailClaimRejection) -> [EmailClaimEvent] {
        switch command {
        case .claim(let email, let user):
            if state.owner == user { return [] }
            if state.owner != nil { throw .taken }
            return [.claimed(EmailClaimed(email: email, user: user))]
        case .recordLogin(let email, let succeeded, let at):
            let attempt = LoginAttempted(email: email, user: state.owner, at: at)
            return [succeeded ? .loginSucceeded(attempt) : .loginFailed(attempt)]
        case .release(let email, let user):
            return state.owner == user ? [.released(EmailReleased(email: email, user: user))] : []
        }
    }
}
