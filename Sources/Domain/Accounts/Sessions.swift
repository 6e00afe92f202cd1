import Foundation

// Sessions of the User aggregate: a login opens one (only its token's digest is recorded), a
// logout closes it or every one of the account's.

/// A login opened a session; only the SHA-256 digest of its token is recorded.
public struct SessionOpened: Equatable, Sendable, Codable {
    public let user: UserID
    public let session: SessionID
    public let tokenDigest: String
    public let expiresAt: Date
    public init(user: UserID, session: SessionID, tokenDigest: String, expiresAt: Date) {
        self.user = user
        self.session = session
        self.tokenDigest = tokenDigest
        self.expiresAt = expiresAt
    }
}

/// A session was logged out.
public struct SessionClosed: Equatable, Sendable, Codable {
    public let user: UserID
    public let session: SessionID
    public init(user: UserID, session: SessionID) {
        self.user = user
        self.session = session
    }
}

extension UserAggregate {
    /// The event of a new session, none when the account has it already.
    static func openSession(_ session: SessionID, _ digest: String, _ expiresAt: Date, _ account: Account) -> [UserEvent] {
        guard !account.sessions.contains(session) else { return [] }
        return [.sessionOpened(SessionOpened(user: account.id, session: session, tokenDigest: digest, expiresAt: expiresAt))]
    }

    /// The event of a logout, none when the session is not the account's (or already closed).
    static func closeSession(_ session: SessionID, _ account: Account) -> [UserEvent] {
        guard account.sessions.contains(session) else { return [] }
        return [.sessionClosed(SessionClosed(user: account.id, session: session))]
    }

    /// One logout for each session the account has, in a fixed order.
    static func closeAllSessions(_ account: Account) -> [UserEvent] {
        account.sessions.sorted { $0.description < $1.description }.map { .sessionClosed(SessionClosed(user: account.id, session: $0)) }
    }
}
