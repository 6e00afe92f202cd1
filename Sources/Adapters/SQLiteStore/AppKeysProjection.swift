import Application
import Domain
import GRDB

/// Folds app-key events into `app_keys`, keyed by the key's digest (the key itself is stored nowhere).
struct AppKeysProjection: SQLiteProjection {
    let name = "app-keys"

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE app_keys (
                    digest TEXT PRIMARY KEY,
                    key_id TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL,
                    app TEXT NOT NULL,
                    revoked INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                """)
    }

    func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM app_keys")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        guard case .appKey(let event) = recorded.event else { return }
        switch event {
        case .issued(let e):
            try db.cached(
                sql: "INSERT INTO app_keys (digest, key_id, user_id, app) VALUES (?, ?, ?, ?)",
                arguments: [e.digest, e.key.description, e.user.description, e.app])
        case .revoked(let e):
            try db.cached(sql: "UPDATE app_keys SET revoked = 1 WHERE key_id = ?", arguments: [e.key.description])
        }
    }
}

/// The app-key read model.
public struct SQLiteAppKeys: AppKeyRegister {
    let reads: ReadConnections

    public func appKey(digest: String) async throws -> AppKeyRecord? {
        try reads.read { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM app_keys WHERE digest = ?"), arguments: [digest]),
                let key = AppKeyID(row["key_id"] as String), let user = UserID(row["user_id"] as String)
            else { return nil }
            return AppKeyRecord(key: key, user: user, app: row["app"], revoked: (row["revoked"] as Int) != 0)
        }
    }

    public func anyLive(app: String) async throws -> Bool {
        try reads.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM app_keys JOIN accounts ON accounts.id = app_keys.user_id
                                   WHERE app_keys.app = ? AND app_keys.revoked = 0 AND accounts.role = 'librarian')
                    """,
                arguments: [app]) ?? false
        }
    }
}
