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

/// Too many failed logins for this address; says when to try again, never whether it exists.
public struct LoginThrottled: Error, Equatable, Sendable, CustomStringConvertible {
    public let until: Date
    public init(until: Date) { self.until = until }
    public var description: String {
        "too many failed logins for this email; try again after \(until.formatted(.iso8601))"
    }
}
