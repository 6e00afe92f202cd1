import Foundation

/// The address is taken by another account.
public struct EmailTaken: Error, Equatable, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "an account with this email already exists" }
}

/// Wrong email or password; deliberately does not say which.
public struct InvalidCredentials: Error, Equatable, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "wrong email or password" }
}

/// Too many failed logins for this address from this client; says when to try again, never
/// whether the address has an account.
public struct LoginThrottled: Error, Equatable, Sendable, CustomStringConvertible {
    public let until: Date
    public init(until: Date) { self.until = until }
    public var description: String {
        "too many failed logins for this email from your address; try again after \(until.formatted(.iso8601))"
    }
}

/// Too many logins or signups from one client address in a short time.
public struct TooManyAttempts: Error, Equatable, Sendable, CustomStringConvertible {
    /// Seconds until the next attempt is allowed.
    public let retryAfter: TimeInterval
    public init(retryAfter: TimeInterval) { self.retryAfter = retryAfter }
    public var description: String {
        "too many login and signup attempts from your address; try again in \(Int(min(retryAfter, 86_400).rounded(.up))) seconds"
    }
}
