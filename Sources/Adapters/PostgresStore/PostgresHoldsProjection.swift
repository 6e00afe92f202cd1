import Application
import Domain
import Foundation
import PostgresNIO

/// Folds the books' waiting lists into `holds`, as SQLite's `HoldsProjection` does (same name,
/// same rows): every hold with its place in the log (the order of the line), its status and
/// pickup date. Positions among the waiting are counted when read.
struct PostgresHoldsProjection: PostgresProjection {
    let name = "holds"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM holds")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        switch recorded.event {
        case .user(.closed(let e)):
            // The member's name goes from their holds (erased: the read model keeps '' for it).
            try await session.run("UPDATE holds SET member_name = '' WHERE member_id = \(e.user.description)")
        case .user(.profileChanged(let e)):
            // A member's holds name them as they are called now.
            guard let name = e.displayName, !name.isEmpty else { return }
            try await session.run("UPDATE holds SET member_name = \(name) WHERE member_id = \(e.user.description)")
        case .hold(.placed(let e)):
            try await session.run(
                """
                INSERT INTO holds (id, book_id, book_title, member_id, member_name, placed_at, placed_position, status)
                VALUES (\(e.hold.description), \(e.book.description), \(e.bookTitle), \(e.member.description),
                        \(e.memberName.known ?? ""), \(Timestamp.format(e.at)), \(recorded.position), 'waiting')
                """)
        case .hold(.setAside(let e)):
            try await session.run(
                "UPDATE holds SET status = 'ready', pickup_until = \(Timestamp.format(e.until)) WHERE id = \(e.hold.description)")
        case .hold(.fulfilled(let e)):
            try await session.run(
                """
                UPDATE holds SET status = 'fulfilled', ended_at = \(Timestamp.format(e.at)), loan_id = \(e.loan.description)
                WHERE id = \(e.hold.description)
                """)
        case .hold(.cancelled(let e)): try await end(e.hold, .cancelled, at: e.at, session)
        case .hold(.expired(let e)): try await end(e.hold, .expired, at: e.at, session)
        default: return
        }
    }

    private func end(_ hold: HoldID, _ status: HoldSummary.Status, at: Date, _ session: SQLSession) async throws {
        try await session.run(
            "UPDATE holds SET status = \(status.rawValue), ended_at = \(Timestamp.format(at)) WHERE id = \(hold.description)")
    }

    /// The `holds` table (SQLite's of `v12-holds`), text compared byte by byte as on SQLite.
    static let migration = PostgresSchema.Migration(
        name: "holds-v1",
        sql: [
            """
            CREATE TABLE holds (
                id TEXT COLLATE "C" PRIMARY KEY,
                book_id TEXT COLLATE "C" NOT NULL,
                book_title TEXT NOT NULL,
                member_id TEXT COLLATE "C" NOT NULL,
                member_name TEXT NOT NULL,
                placed_at TEXT NOT NULL,
                placed_position BIGINT NOT NULL,
                status TEXT COLLATE "C" NOT NULL,
                pickup_until TEXT COLLATE "C",
                ended_at TEXT,
                loan_id TEXT
            )
            """,
            "CREATE INDEX holds_by_book ON holds (book_id, status, placed_position)",
            "CREATE INDEX holds_by_member ON holds (member_id, status, placed_position)",
            "CREATE INDEX holds_ready_by_pickup ON holds (pickup_until) WHERE status = 'ready'",
        ])
}
