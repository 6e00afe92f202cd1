import Foundation

/// What the store records of a request sent with an `Idempotency-Key`, in the same atomic step as
/// the first events the request appends: from then on a retry of it can never record them again.
/// Neither the key nor the request is stored, only keyed digests of them (`SafeRetries`).
public struct RequestReceipt: Equatable, Sendable {
    /// The caller's key, digested with who the caller is: one caller's key never meets another's.
    public let key: String
    /// The request's digest (the key, method, route and body as sent): a retry must match it.
    public let fingerprint: String
    /// This attempt: every append of one request records the same one; another attempt's is a duplicate.
    public let attempt: UUID
    public let recordedAt: Date
    /// When the key may be used again for another request.
    public let expiresAt: Date

    public init(key: String, fingerprint: String, attempt: UUID, recordedAt: Date, expiresAt: Date) {
        self.key = key
        self.fingerprint = fingerprint
        self.attempt = attempt
        self.recordedAt = recordedAt
        self.expiresAt = expiresAt
    }
}

/// A receipt as the store keeps it, with the first answer once it was kept (sealed: `SafeRetries`).
public struct KeptReceipt: Equatable, Sendable {
    public let receipt: RequestReceipt
    /// The sealed answer; nil while the request runs, or when it was lost (a crash after the commit).
    public let answer: Data?
    public init(_ receipt: RequestReceipt, answer: Data?) {
        self.receipt = receipt
        self.answer = answer
    }
}

/// Another attempt holds this request key (a concurrent duplicate, or one from another process):
/// nothing of the append was written.
public struct RequestAlreadyRecorded: Error, Equatable, Sendable {
    public let key: String
    public init(key: String) { self.key = key }
}

/// The receipts of requests sent with an `Idempotency-Key`, outside the log. The event store
/// records each receipt with its request's first events (`EventStore.append(_:receipt:)`).
public protocol RequestReceipts: Sendable {
    /// The receipt kept under `key`, expired or not; nil when there is none.
    func receipt(_ key: String) async throws -> KeptReceipt?
    /// Keeps the request's sealed `answer` on its receipt, writing the receipt when nothing recorded it
    /// yet (a request that appended nothing) or the one kept has expired; another attempt's stays as it is.
    func keep(_ answer: Data, for receipt: RequestReceipt) async throws
    /// Forgets every receipt expired at `now`; returns how many.
    @discardableResult
    func forget(expiredAt now: Date) async throws -> Int
}

extension RequestReceipt {
    /// Whether a store holding `kept` may record this receipt: it is this attempt's, or has expired.
    public func mayReplace(_ kept: RequestReceipt) -> Bool { kept.attempt == attempt || kept.expiresAt <= recordedAt }
}
