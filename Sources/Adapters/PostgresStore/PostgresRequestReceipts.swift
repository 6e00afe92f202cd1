import Application
import Foundation
import Logging
import PostgresNIO

/// The receipts of requests sent with an `Idempotency-Key`, in `request_receipts`, as on SQLite:
/// written by the event store in the transaction of the request's first events (`check`,
/// `record`); the sealed answer comes after. Shared by every server of the library.
public struct PostgresRequestReceipts: RequestReceipts {
    let client: PostgresPool
    let logger: Logger

    /// Throws `RequestAlreadyRecorded` when another attempt holds `receipt`'s key and it has not expired.
    static func check(_ receipt: RequestReceipt, _ session: SQLSession) async throws {
        guard let kept = try await fetch(receipt.key, session) else { return }
        guard receipt.mayReplace(kept.receipt) else { throw RequestAlreadyRecorded(key: receipt.key) }
    }

    /// Records `receipt` (once per attempt: a later append of the same request leaves it as it is).
    static func record(_ receipt: RequestReceipt, _ session: SQLSession) async throws {
        try await session.run(
            """
            INSERT INTO request_receipts (key, fingerprint, attempt, recorded_at, expires_at, answer)
            VALUES (\(receipt.key), \(receipt.fingerprint), \(receipt.attempt.uuidString), \(millis(receipt.recordedAt)),
                    \(millis(receipt.expiresAt)), NULL)
            ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, attempt = excluded.attempt,
                recorded_at = excluded.recorded_at, expires_at = excluded.expires_at, answer = NULL
            WHERE request_receipts.attempt <> excluded.attempt
            """)
    }

    public func receipt(_ key: String) async throws -> KeptReceipt? {
        try await client.session(logger) { session in try await Self.fetch(key, session) }
    }

    public func keep(_ answer: Data, for receipt: RequestReceipt) async throws {
        try await client.session(logger) { session in
            try await session.run(
                """
                INSERT INTO request_receipts (key, fingerprint, attempt, recorded_at, expires_at, answer)
                VALUES (\(receipt.key), \(receipt.fingerprint), \(receipt.attempt.uuidString), \(Self.millis(receipt.recordedAt)),
                        \(Self.millis(receipt.expiresAt)), \(answer))
                ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, attempt = excluded.attempt,
                    recorded_at = excluded.recorded_at, expires_at = excluded.expires_at, answer = excluded.answer
                WHERE request_receipts.attempt = excluded.attempt OR request_receipts.expires_at <= excluded.recorded_at
                """)
        }
    }

    @discardableResult
    public func forget(expiredAt now: Date) async throws -> Int {
        try await client.session(logger) { session in
            let gone = try await session.value(
                "WITH gone AS (DELETE FROM request_receipts WHERE expires_at <= \(Self.millis(now)) RETURNING 1) SELECT count(*) FROM gone",
                as: Int64.self)
            return Int(gone ?? 0)
        }
    }

    private static func fetch(_ key: String, _ session: SQLSession) async throws -> KeptReceipt? {
        let rows = try await session.rows(
            "SELECT fingerprint, attempt, recorded_at, expires_at, answer FROM request_receipts WHERE key = \(key)",
            as: (String, String, Int64, Int64, Data?).self)
        guard let (fingerprint, attempt, recordedAt, expiresAt, answer) = rows.first else { return nil }
        let receipt = RequestReceipt(
            key: key, fingerprint: fingerprint, attempt: UUID(uuidString: attempt) ?? unreadable, recordedAt: date(recordedAt),
            expiresAt: date(expiresAt))
        return KeptReceipt(receipt, answer: answer)
    }

    /// An attempt that cannot be read back (never written so): matches no attempt.
    private static let unreadable = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    private static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    private static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
