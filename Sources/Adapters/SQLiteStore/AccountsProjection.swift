import Application
import Domain
import Foundation
import GRDB

/// Folds user events into `accounts` and the open `sessions` (keyed by token digest; a logged-out
/// session's row is deleted, so its token is refused at once). Password hashes stay in the log only.
struct AccountsProjection: SQLiteProjection {
    let name = "accounts"

    func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM accounts; DELETE FROM sessions;")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        switch recorded.event {
        case .user(let event): try apply(event, at: recorded.metadata.recordedAt, db)
        case .book, .emailClaim, .loan, .patron, .inbox, .bookmark, .isbnClaim, .hold, .cardClaim, .walkIn, .appKey, .usernameClaim: return
        }
    }

    private func apply(_ event: UserEvent, at recordedAt: Date, _ db: Database) throws {
        switch event {
        case .registered(let e):
            // Erased (the member closed the account since): no row, as after the closing.
            guard let email = e.email.known, let name = e.displayName.known, let country = e.country.known else { return }
            try db.cached(
                sql: "INSERT INTO accounts (id, email, display_name, country, role, registered_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [e.user.description, email.value, name, country, e.role.rawValue, Timestamp.format(recordedAt)])
        case .roleChanged(let e):
            try db.cached(sql: "UPDATE accounts SET role = ? WHERE id = ?", arguments: [e.role.rawValue, e.user.description])
        case .profileChanged(let e):
            try db.cached(
                sql: "UPDATE accounts SET display_name = coalesce(?, display_name), country = coalesce(?, country) WHERE id = ?",
                arguments: [e.displayName, e.country, e.user.description])
        case .emailChanged(let e):
            guard let email = e.email.known else { return }  // erased: the account is closed, its row goes with it
            try db.cached(sql: "UPDATE accounts SET email = ? WHERE id = ?", arguments: [email.value, e.user.description])
        case .cardIssued(let e):
            guard let card = e.card.known else { return }  // erased: the account is closed, its row goes with it
            try db.cached(sql: "UPDATE accounts SET card_number = ? WHERE id = ?", arguments: [card.digits, e.user.description])
        case .usernameChosen(let e):
            guard let name = e.username.known else { return }  // erased: the account is closed, its row goes with it
            try db.cached(sql: "UPDATE accounts SET username = ? WHERE id = ?", arguments: [name.value, e.user.description])
        case .usernameDropped(let e):
            try db.cached(sql: "UPDATE accounts SET username = NULL WHERE id = ?", arguments: [e.user.description])
        case .languageChosen(let e):
            try db.cached(sql: "UPDATE accounts SET language = ? WHERE id = ?", arguments: [e.language.rawValue, e.user.description])
        case .sessionOpened(let e):
            try db.cached(
                sql: "INSERT INTO sessions (token_digest, session_id, user_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [e.tokenDigest, e.session.description, e.user.description, Timestamp.format(e.expiresAt)])
        case .sessionClosed(let e):
            try db.cached(sql: "DELETE FROM sessions WHERE session_id = ?", arguments: [e.session.description])
        case .closed(let e):
            // The account's row goes (its personal data with it: the writer deletes securely) and so do its sessions.
            try db.cached(sql: "DELETE FROM accounts WHERE id = ?", arguments: [e.user.description])
            try db.cached(sql: "DELETE FROM sessions WHERE user_id = ?", arguments: [e.user.description])
        case .passwordChanged, .passwordReset, .resetCodeIssued:
            return  // hashes and code digests stay in the log only; the sessions a change ends are their own events
        }
    }
}

/// The accounts read model.
public struct SQLiteAccounts: Accounts {
    let reads: ReadConnections

    public func account(_ id: UserID) async throws -> AccountSummary? {
        try reads.read { db in try Self.account(id, db) }
    }

    public func list(_ page: PageRequest) async throws -> Page<AccountSummary> {
        try reads.read { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM accounts")) ?? 0
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM accounts ORDER BY email, id LIMIT ? OFFSET ?"), arguments: [page.limit, page.offset])
            return Page(items: try rows.map(Self.summary), total: total, of: page)
        }
    }

    public func librarians() async throws -> [UserID] {
        try reads.read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM accounts WHERE role = 'librarian' ORDER BY id")).compactMap {
                UserID($0)
            }
        }
    }

    public func session(digest: String) async throws -> SessionRecord? {
        try reads.read { db in try Self.session(digest: digest, db) }
    }

    /// The session and its account in one read transaction: a read costs a transaction and a
    /// reader connection, and every signed-in request makes this one.
    public func signedIn(digest: String) async throws -> (session: SessionRecord, account: AccountSummary?)? {
        try reads.read { db in
            guard let session = try Self.session(digest: digest, db) else { return nil }
            return (session, try Self.account(session.user, db))
        }
    }

    private static func account(_ id: UserID, _ db: Database) throws -> AccountSummary? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM accounts WHERE id = ?"), arguments: [id.description]).map(summary)
    }

    private static func session(digest: String, _ db: Database) throws -> SessionRecord? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM sessions WHERE token_digest = ?"), arguments: [digest]),
            let session = SessionID(row["session_id"] as String), let user = UserID(row["user_id"] as String)
        else { return nil }
        return SessionRecord(session: session, user: user, expiresAt: try Timestamp.parse(row["expires_at"]))
    }

    private static func summary(_ row: Row) throws -> AccountSummary {
        guard let id = UserID(row["id"] as String), let role = Role(rawValue: row["role"]) else {
            throw DatabaseError(message: "bad account row")
        }
        return AccountSummary(
            id: id, email: EmailAddress(checked: row["email"]), displayName: row["display_name"], country: row["country"],
            role: role, registeredAt: try Timestamp.parse(row["registered_at"]),
            cardNumber: try (row["card_number"] as String?).map { try CardNumber(parsing: $0) },
            username: try (row["username"] as String?).map { try Username(parsing: $0) },
            language: (row["language"] as String?).flatMap(Language.init(rawValue:)))
    }
}
