import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// Folds app-key events into `app_keys`, keyed by the key's digest (the key itself is stored
/// nowhere), as SQLite's `AppKeysProjection` does (same name, same rows).
struct PostgresAppKeysProjection: PostgresProjection {
    let name = "app-keys"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM app_keys")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        guard case .appKey(let event) = recorded.event else { return }
        switch event {
        case .issued(let e):
            try await session.run(
                """
                INSERT INTO app_keys (digest, key_id, user_id, app)
                VALUES (\(e.digest), \(e.key.description), \(e.user.description), \(e.app))
                """)
        case .revoked(let e):
            try await session.run("UPDATE app_keys SET revoked = TRUE WHERE key_id = \(e.key.description)")
        }
    }

    /// The `app_keys` table (SQLite's of `v17-prolific`); `user_id` collates as `accounts.id`, which it joins.
    static let migration = PostgresSchema.Migration(
        name: "app-keys-v1",
        sql: [
            """
            CREATE TABLE app_keys (
                digest TEXT PRIMARY KEY,
                key_id TEXT NOT NULL UNIQUE,
                user_id TEXT COLLATE "C" NOT NULL,
                app TEXT NOT NULL,
                revoked BOOLEAN NOT NULL DEFAULT FALSE
            )
            """
        ])
}

/// The app-key read model on PostgreSQL, read as `SQLiteAppKeys` reads it (a key is live while
/// not revoked and its account, in `accounts`, is a librarian's).
public struct PostgresAppKeys: AppKeyRegister {
    let client: PostgresPool
    let logger: Logger

    public func appKey(digest: String) async throws -> AppKeyRecord? {
        try await client.session(logger) { session in
            guard
                let (keyID, userID, app, revoked) = try await session.rows(
                    "SELECT key_id, user_id, app, revoked FROM app_keys WHERE digest = \(digest)", as: (String, String, String, Bool).self
                ).first,
                let key = AppKeyID(keyID), let user = UserID(userID)
            else { return nil }
            return AppKeyRecord(key: key, user: user, app: app, revoked: revoked)
        }
    }

    public func anyLive(app: String) async throws -> Bool {
        try await client.session(logger) { session in
            try await session.value(
                """
                SELECT EXISTS (SELECT 1 FROM app_keys JOIN accounts ON accounts.id = app_keys.user_id
                               WHERE app_keys.app = \(app) AND NOT app_keys.revoked AND accounts.role = 'librarian')
                """, as: Bool.self) ?? false
        }
    }
}

extension PostgresLibrary {
    /// The app-key read model (`LibraryDatabase.appKeys` on SQLite).
    public var appKeys: PostgresAppKeys { PostgresAppKeys(client: client, logger: logger) }
}
