import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// The accounts read model on PostgreSQL (`accounts` and `sessions`), read as `SQLiteAccounts` reads it.
public struct PostgresAccounts: Accounts {
    let client: PostgresPool
    let logger: Logger
    private typealias AccountRow = (String, String, String, String, String, String, String?, String?, String?)
    private static let columns = "id, email, display_name, country, role, registered_at, card_number, username, language"

    public func account(_ id: UserID) async throws -> AccountSummary? {
        try await client.session(logger) { session in
            try await session.rows(
                "SELECT \(unescaped: Self.columns) FROM accounts WHERE id = \(id.description)", as: AccountRow.self
            ).first.map(Self.summary)
        }
    }

    public func list(_ page: PageRequest) async throws -> Page<AccountSummary> {
        try await client.session(logger) { session in
            try await session.snapshot {
                let total = try await session.value("SELECT COUNT(*) FROM accounts", as: Int.self) ?? 0
                let rows = try await session.rows(
                    "SELECT \(unescaped: Self.columns) FROM accounts ORDER BY email, id LIMIT \(page.limit) OFFSET \(page.offset)",
                    as: AccountRow.self)
                return Page(items: try rows.map(Self.summary), total: total, of: page)
            }
        }
    }

    public func librarians() async throws -> [UserID] {
        try await client.session(logger) { session in
            try await session.column("SELECT id FROM accounts WHERE role = 'librarian' ORDER BY id", as: String.self).compactMap {
                UserID($0)
            }
        }
    }

    public func session(digest: String) async throws -> SessionRecord? {
        try await client.session(logger) { session in
            guard
                let (sessionID, userID, expiresAt) = try await session.rows(
                    "SELECT session_id, user_id, expires_at FROM sessions WHERE token_digest = \(digest)", as: (String, String, String).self
                ).first,
                let id = SessionID(sessionID), let user = UserID(userID)
            else { return nil }
            return SessionRecord(session: id, user: user, expiresAt: try Timestamp.parse(expiresAt))
        }
    }

    private static func summary(_ row: AccountRow) throws -> AccountSummary {
        let (id, email, displayName, country, role, registeredAt, card, username, language) = row
        guard let user = UserID(id), let role = Role(rawValue: role) else { throw UnreadableReadModelRow(table: "accounts", id: id) }
        return AccountSummary(
            id: user, email: EmailAddress(checked: email), displayName: displayName, country: country, role: role,
            registeredAt: try Timestamp.parse(registeredAt), cardNumber: try card.map { try CardNumber(parsing: $0) },
            username: try username.map { try Username(parsing: $0) }, language: language.flatMap(Language.init(rawValue:)))
    }
}

extension PostgresLibrary {
    /// The accounts read model (`LibraryDatabase.accounts` on SQLite).
    public var accounts: PostgresAccounts { PostgresAccounts(client: client, logger: logger) }
}
