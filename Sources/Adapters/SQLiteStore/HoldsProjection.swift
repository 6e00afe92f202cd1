import Application
import Domain
import Foundation
import GRDB

/// Folds the books' waiting lists into `holds`: every hold with its place in the log (the order
/// of the line), its status and pickup date. Positions among the waiting are counted when read.
struct HoldsProjection: SQLiteProjection {
    let name = "holds"

    func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM holds")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        if case .user(.closed(let e)) = recorded.event {
            // The member's name goes from their holds (erased: the read model keeps '' for it).
            return try db.cached(sql: "UPDATE holds SET member_name = '' WHERE member_id = ?", arguments: [e.user.description])
        }
        if case .user(.profileChanged(let e)) = recorded.event, let name = e.displayName, !name.isEmpty {
            // A member's holds name them as they are called now.
            return try db.cached(sql: "UPDATE holds SET member_name = ? WHERE member_id = ?", arguments: [name, e.user.description])
        }
        guard case .hold(let event) = recorded.event else { return }
        switch event {
        case .placed(let e):
            try db.cached(
                sql: """
                    INSERT INTO holds (id, book_id, book_title, member_id, member_name, placed_at, placed_position, status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting')
                    """,
                arguments: [
                    e.hold.description, e.book.description, e.bookTitle, e.member.description, e.memberName.known ?? "",
                    Timestamp.format(e.at),
                    recorded.position,
                ])
        case .setAside(let e):
            try db.cached(
                sql: "UPDATE holds SET status = 'ready', pickup_until = ? WHERE id = ?",
                arguments: [Timestamp.format(e.until), e.hold.description])
        case .fulfilled(let e):
            try db.cached(
                sql: "UPDATE holds SET status = 'fulfilled', ended_at = ?, loan_id = ? WHERE id = ?",
                arguments: [Timestamp.format(e.at), e.loan.description, e.hold.description])
        case .cancelled(let e): try end(e.hold, .cancelled, at: e.at, db)
        case .expired(let e): try end(e.hold, .expired, at: e.at, db)
        }
    }

    private func end(_ hold: HoldID, _ status: HoldSummary.Status, at: Date, _ db: Database) throws {
        try db.cached(
            sql: "UPDATE holds SET status = ?, ended_at = ? WHERE id = ?",
            arguments: [status.rawValue, Timestamp.format(at), hold.description])
    }

    /// Migration `v12-holds`: the `holds` table, and `notices` rebuilt so that a notice is about a
    /// loan or a hold (`loan_id` may be null, `hold_id` added); every notice kept as it was.
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE holds (
                    id TEXT PRIMARY KEY,
                    book_id TEXT NOT NULL,
                    book_title TEXT NOT NULL,
                    member_id TEXT NOT NULL,
                    member_name TEXT NOT NULL,
                    placed_at TEXT NOT NULL,
                    placed_position INTEGER NOT NULL,
                    status TEXT NOT NULL,
                    pickup_until TEXT,
                    ended_at TEXT,
                    loan_id TEXT
                ) STRICT;
                CREATE INDEX holds_by_book ON holds (book_id, status, placed_position);
                CREATE INDEX holds_by_member ON holds (member_id, status, placed_position);
                CREATE INDEX holds_ready_by_pickup ON holds (pickup_until) WHERE status = 'ready';
                CREATE TABLE notices_v12 (
                    id TEXT PRIMARY KEY,
                    member_id TEXT NOT NULL,
                    loan_id TEXT,
                    hold_id TEXT,
                    book_title TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    due_at TEXT NOT NULL,
                    issued_at TEXT NOT NULL,
                    issued_position INTEGER NOT NULL,
                    read_at TEXT
                ) STRICT;
                INSERT INTO notices_v12 (id, member_id, loan_id, book_title, kind, due_at, issued_at, issued_position, read_at)
                    SELECT id, member_id, loan_id, book_title, kind, due_at, issued_at, issued_position, read_at FROM notices;
                DROP TABLE notices;
                ALTER TABLE notices_v12 RENAME TO notices;
                CREATE INDEX notices_by_member ON notices (member_id, issued_position);
                """)
    }
}
