import Foundation

/// The address is taken by another account.
public struct EmailTaken: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .emailTaken }
}

/// Another account has this login name.
public struct UsernameTaken: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .usernameTaken }
}

/// Wrong email or password; deliberately does not say which.
public struct InvalidCredentials: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .invalidCredentials }
}

/// Too many failed logins for this address from this client; says when to try again, never
/// whether the address has an account.
public struct LoginThrottled: MessageConvertible, Equatable, Sendable {
    public let until: Date
    public init(until: Date) { self.until = until }
    public var message: Message { .loginThrottled(until: until) }
}

/// Too many logins or signups from one client address in a short time.
public struct TooManyAttempts: MessageConvertible, Equatable, Sendable {
    /// Seconds until the next attempt is allowed.
    public let retryAfter: TimeInterval
    public init(retryAfter: TimeInterval) { self.retryAfter = retryAfter }
    public var message: Message { .tooManyAttempts(retryAfterSeconds: Int(min(retryAfter, 86_400).rounded(.up))) }
}

/// The current password typed to change it is not the account's.
public struct WrongPassword: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .wrongPassword }
}

/// A reset code that does not work for the address given: mistyped, used, replaced, expired, or
/// for an address without an account; deliberately never which.
public struct ResetCodeRefused: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .resetCodeRefused }
}
