import Application
import Domain
import Foundation
import PostgresNIO

/// Folds user events into `accounts` and the open `sessions`, as SQLite's `AccountsProjection`
/// does (same name, same rows): a logged-out session's row is deleted, so its token is refused at
/// once; password hashes and reset-code digests stay in the log only. A closed account's row and
/// sessions are deleted (its personal data with them), and its registration, erased, adds none.
struct PostgresAccountsProjection: PostgresProjection {
    let name = "accounts"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM accounts")
        try await session.run("DELETE FROM sessions")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        guard case .user(let event) = recorded.event else { return }
        switch event {
        case .registered(let e):
            // Erased (the member closed the account since): no row, as after the closing.
            guard let email = e.email.known, let name = e.displayName.known, let country = e.country.known else { return }
            try await session.run(
                """
                INSERT INTO accounts (id, email, display_name, country, role, registered_at)
                VALUES (\(e.user.description), \(email.value), \(name), \(country), \(e.role.rawValue),
                        \(Timestamp.format(recorded.metadata.recordedAt)))
                """)
        case .roleChanged(let e):
            try await session.run("UPDATE accounts SET role = \(e.role.rawValue) WHERE id = \(e.user.description)")
        case .profileChanged(let e):
            try await session.run(
                """
                UPDATE accounts SET display_name = coalesce(\(e.displayName), display_name), country = coalesce(\(e.country), country)
                WHERE id = \(e.user.description)
                """)
        case .emailChanged(let e):
            guard let email = e.email.known else { return }  // erased: the account is closed, its row goes with it
            try await session.run("UPDATE accounts SET email = \(email.value) WHERE id = \(e.user.description)")
        case .cardIssued(let e):
            guard let card = e.card.known else { return }  // erased: the account is closed, its row goes with it
            try await session.run("UPDATE accounts SET card_number = \(card.digits) WHERE id = \(e.user.description)")
        case .usernameChosen(let e):
            guard let name = e.username.known else { return }  // erased: the account is closed, its row goes with it
            try await session.run("UPDATE accounts SET username = \(name.value) WHERE id = \(e.user.description)")
        case .usernameDropped(let e):
            try await session.run("UPDATE accounts SET username = NULL WHERE id = \(e.user.description)")
        case .languageChosen(let e):
            try await session.run("UPDATE accounts SET language = \(e.language.rawValue) WHERE id = \(e.user.description)")
        case .sessionOpened(let e):
            try await session.run(
                """
                INSERT INTO sessions (token_digest, session_id, user_id, expires_at)
                VALUES (\(e.tokenDigest), \(e.session.description), \(e.user.description), \(Timestamp.format(e.expiresAt)))
                """)
        case .sessionClosed(let e):
            try await session.run("DELETE FROM sessions WHERE session_id = \(e.session.description)")
        case .closed(let e):
            try await session.run("DELETE FROM accounts WHERE id = \(e.user.description)")
            try await session.run("DELETE FROM sessions WHERE user_id = \(e.user.description)")
        case .passwordChanged, .passwordReset, .resetCodeIssued:
            return  // hashes and code digests stay in the log only; the sessions a change ends are their own events
        }
    }

    /// The `accounts` and `sessions` tables (SQLite's after `v2-accounts`, `v13-cards`,
    /// `v16-usernames` and `v18-language`). Text compares byte by byte (`COLLATE "C"`), as SQLite's does.
    static let migration = PostgresSchema.Migration(
        name: "accounts-v1",
        sql: [
            """
            CREATE TABLE accounts (
                id TEXT COLLATE "C" PRIMARY KEY,
                email TEXT COLLATE "C" NOT NULL UNIQUE,
                display_name TEXT NOT NULL,
                country TEXT NOT NULL,
                role TEXT NOT NULL,
                registered_at TEXT NOT NULL,
                card_number TEXT,
                username TEXT,
                language TEXT
            )
            """,
            "CREATE UNIQUE INDEX accounts_by_card ON accounts (card_number) WHERE card_number IS NOT NULL",
            """
            CREATE TABLE sessions (
                token_digest TEXT PRIMARY KEY,
                session_id TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                expires_at TEXT NOT NULL
            )
            """,
            "CREATE INDEX sessions_by_user ON sessions (user_id)",
        ])
}
