import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// Failed logins in `login_failures`, as `SQLiteLoginFailures` keeps them: outside the log, pruned
/// by age and bounded in rows, so no stream of guesses can fill the disk. Shared by every server
/// of the library: a failure is one row inserted, so two servers counting failures at once lose
/// none; pruning skips the rows another server is pruning or changing at that moment (it never
/// waits on them, so two servers never deadlock), and the next failure prunes what is left.
public struct PostgresLoginFailures: LoginFailures {
    let client: PostgresPool
    let logger: Logger
    /// The most rows kept; the oldest (by insertion) go first.
    let maxRows: Int

    public func failures(email: EmailAddress, client: String, since: Date) async throws -> [Date] {
        try await self.client.session(logger) { session in
            try await session.column(
                "SELECT at FROM login_failures WHERE email = \(email.value) AND client = \(client) AND at >= \(Timestamp.format(since)) ORDER BY at",
                as: String.self)
        }.map(Timestamp.parse)
    }

    public func record(email: EmailAddress, client: String, at: Date, forgetBefore: Date) async throws {
        try await self.client.session(logger) { [maxRows] session in
            try await session.transaction {
                try await session.run(
                    "INSERT INTO login_failures (email, client, at) VALUES (\(email.value), \(client), \(Timestamp.format(at)))")
                // Rows numbered `maxRows` or more below the newest go (numbers only grow, so at most `maxRows` stay).
                try await session.run(
                    """
                    DELETE FROM login_failures WHERE seq IN (
                        SELECT seq FROM login_failures
                        WHERE at < \(Timestamp.format(forgetBefore)) OR seq <= (SELECT MAX(seq) FROM login_failures) - \(maxRows)
                        FOR UPDATE SKIP LOCKED)
                    """)
            }
        }
    }

    public func clear(email: EmailAddress, client: String) async throws {
        try await self.client.session(logger) { session in
            try await session.run("DELETE FROM login_failures WHERE email = \(email.value) AND client = \(client)")
        }
    }

    public func move(from old: EmailAddress, to new: EmailAddress) async throws {
        try await client.session(logger) { session in
            try await session.run("UPDATE login_failures SET email = \(new.value) WHERE email = \(old.value)")
        }
    }

    public func forget(email: EmailAddress) async throws {
        try await client.session(logger) { session in
            try await session.run("DELETE FROM login_failures WHERE email = \(email.value)")
        }
    }

    /// The `login_failures` table (SQLite's of `v8-login-failures`); `seq` numbers rows in insertion order.
    static let migration = PostgresSchema.Migration(
        name: "login-failures-v1",
        sql: [
            """
            CREATE TABLE login_failures (
                seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                email TEXT COLLATE "C" NOT NULL,
                client TEXT COLLATE "C" NOT NULL,
                at TEXT COLLATE "C" NOT NULL
            )
            """,
            "CREATE INDEX login_failures_by_key ON login_failures (email, client, at)",
            "CREATE INDEX login_failures_by_age ON login_failures (at)",
        ])
}

extension PostgresLibrary {
    /// Failed logins, at most `maxRows` kept (`LibraryDatabase.loginFailures` on SQLite).
    public func loginFailures(maxRows: Int = 100_000) -> PostgresLoginFailures {
        PostgresLoginFailures(client: client, logger: logger, maxRows: maxRows)
    }
}
