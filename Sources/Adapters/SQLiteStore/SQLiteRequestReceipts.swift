import Application
import Foundation
import GRDB

/// The receipts of requests sent with an `Idempotency-Key`, in `request_receipts`: outside the log,
/// written by the event store in the transaction of the request's first events (`check`, `record`),
/// so a crash can never leave those events without their receipt; the sealed answer comes after.
public struct SQLiteRequestReceipts: RequestReceipts {
    let pool: DatabasePool
    let reads: ReadConnections

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE request_receipts (
                    key TEXT PRIMARY KEY,               -- keyed digest of the caller and their key
                    fingerprint TEXT NOT NULL,          -- keyed digest of the request
                    attempt TEXT NOT NULL,
                    recorded_at INTEGER NOT NULL,       -- milliseconds since 1970
                    expires_at INTEGER NOT NULL,
                    answer BLOB                         -- sealed; NULL until kept
                ) STRICT;
                CREATE INDEX request_receipts_by_expiry ON request_receipts (expires_at);
                """)
    }

    /// Throws `RequestAlreadyRecorded` when another attempt holds `receipt`'s key and it has not
    /// expired; the store calls it before writing anything of the append.
    static func check(_ receipt: RequestReceipt, _ db: Database) throws {
        guard let kept = try fetch(receipt.key, db) else { return }
        guard receipt.mayReplace(kept.receipt) else { throw RequestAlreadyRecorded(key: receipt.key) }
    }

    /// Records `receipt` (once per attempt: a later append of the same request leaves it as it is).
    static func record(_ receipt: RequestReceipt, _ db: Database) throws {
        try db.cached(
            sql: """
                INSERT INTO request_receipts (key, fingerprint, attempt, recorded_at, expires_at, answer)
                VALUES (?, ?, ?, ?, ?, NULL)
                ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, attempt = excluded.attempt,
                    recorded_at = excluded.recorded_at, expires_at = excluded.expires_at, answer = NULL
                WHERE attempt <> excluded.attempt
                """,
            arguments: arguments(receipt))
    }

    public func receipt(_ key: String) async throws -> KeptReceipt? {
        try reads.read { db in try Self.fetch(key, db) }
    }

    public func keep(_ answer: Data, for receipt: RequestReceipt) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO request_receipts (key, fingerprint, attempt, recorded_at, expires_at, answer)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, attempt = excluded.attempt,
                        recorded_at = excluded.recorded_at, expires_at = excluded.expires_at, answer = excluded.answer
                    WHERE attempt = excluded.attempt OR expires_at <= excluded.recorded_at
                    """,
                arguments: Self.arguments(receipt) + [answer])
        }
    }

    @discardableResult
    public func forget(expiredAt now: Date) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM request_receipts WHERE expires_at <= ?", arguments: [Self.millis(now)])
            return db.changesCount
        }
    }

    private static func fetch(_ key: String, _ db: Database) throws -> KeptReceipt? {
        let sql = "SELECT fingerprint, attempt, recorded_at, expires_at, answer FROM request_receipts WHERE key = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) else { return nil }
        let attempt: String = row[1]
        let receipt = RequestReceipt(
            key: key, fingerprint: row[0], attempt: UUID(uuidString: attempt) ?? Self.unreadable, recordedAt: date(row[2]),
            expiresAt: date(row[3]))
        return KeptReceipt(receipt, answer: row[4])
    }

    /// An attempt that cannot be read back (never written so): matches no attempt.
    private static let unreadable = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    private static func arguments(_ receipt: RequestReceipt) -> StatementArguments {
        [receipt.key, receipt.fingerprint, receipt.attempt.uuidString, millis(receipt.recordedAt), millis(receipt.expiresAt)]
    }

    private static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    private static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
