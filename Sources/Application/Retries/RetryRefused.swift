import Foundation

/// A request with an `Idempotency-Key` that is not run: why (`RetryTrouble`).
public struct RetryRefused: MessageConvertible, Equatable, Sendable {
    public let trouble: RetryTrouble
    public init(_ trouble: RetryTrouble) { self.trouble = trouble }
    public var message: Message { .retry(trouble) }
}

/// Why a request with an `Idempotency-Key` is not run.
public enum RetryTrouble: Equatable, Sendable {
    /// The header is not 1 to 255 visible ASCII characters.
    case badKey
    /// The key was used for another request (another route or body) less than a day ago.
    case keyReused
    /// A request with this key is still running.
    case inProgress
    /// The request with this key was recorded at `recordedAt`, but its answer was lost (a crash after
    /// the commit): it is not run again.
    case answerNotKept(recordedAt: Date)
}
