import Application
import Domain
import Foundation
import GRDB

/// Failed logins in `login_failures`: outside the log, pruned by age and bounded in rows, so no
/// stream of guesses can fill the disk.
public struct SQLiteLoginFailures: LoginFailures {
    let pool: DatabasePool
    let reads: ReadConnections
    /// The most rows kept; the oldest go first.
    let maxRows: Int

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE login_failures (
                    seq INTEGER PRIMARY KEY,
                    email TEXT NOT NULL,
                    client TEXT NOT NULL,
                    at TEXT NOT NULL
                ) STRICT;
                CREATE INDEX login_failures_by_key ON login_failures (email, client, at);
                CREATE INDEX login_failures_by_age ON login_failures (at);
                """)
    }

    public func failures(email: EmailAddress, client: String, since: Date) async throws -> [Date] {
        try reads.read { db in
            try String.fetchAll(
                db, sql: "SELECT at FROM login_failures WHERE email = ? AND client = ? AND at >= ? ORDER BY at",
                arguments: [email.value, client, Timestamp.format(since)])
        }.map(Timestamp.parse)
    }

    public func record(email: EmailAddress, client: String, at: Date, forgetBefore: Date) async throws {
        let maxRows = self.maxRows
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO login_failures (email, client, at) VALUES (?, ?, ?)",
                arguments: [email.value, client, Timestamp.format(at)])
            try db.execute(sql: "DELETE FROM login_failures WHERE at < ?", arguments: [Timestamp.format(forgetBefore)])
            try db.execute(sql: "DELETE FROM login_failures WHERE seq <= (SELECT MAX(seq) FROM login_failures) - ?", arguments: [maxRows])
        }
    }

    public func clear(email: EmailAddress, client: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM login_failures WHERE email = ? AND client = ?", arguments: [email.value, client])
        }
    }

    public func move(from old: EmailAddress, to new: EmailAddress) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE login_failures SET email = ? WHERE email = ?", arguments: [new.value, old.value])
        }
    }

    public func forget(email: EmailAddress) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM login_failures WHERE email = ?", arguments: [email.value]) }
    }
}

extension LibraryDatabase {
    /// Failed logins, at most `maxRows` kept.
    public func loginFailures(maxRows: Int = 100_000) -> SQLiteLoginFailures {
        SQLiteLoginFailures(pool: pool, reads: reads, maxRows: maxRows)
    }
}
