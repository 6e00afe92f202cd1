import Application
import Domain
import Foundation
import PostgresNIO

/// Folds loan and inbox events into `loans` and `notices`, as SQLite's `LoansProjection` does
/// (same name, same rows): a loan's due-soon and overdue notices, and a hold's ready-for-pickup
/// and cancelled-with-its-book notices, each stored once.
struct PostgresLoansProjection: PostgresProjection {
    let name = "loans"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM loans")
        try await session.run("DELETE FROM notices")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        switch recorded.event {
        case .loan(.opened(let e)):
            let walkInKey = e.borrower == nil ? e.borrowerName.known.map(WalkInName.key) : nil
            try await session.run(
                """
                INSERT INTO loans (id, book_id, book_title, borrower_id, borrower_name, lent_at, due_at, borrower_key)
                VALUES (\(e.loan.description), \(e.book.description), \(e.bookTitle), \(e.borrower?.description),
                        \(e.borrowerName.known ?? ""), \(Timestamp.format(e.lentAt)), \(Timestamp.format(e.dueAt)), \(walkInKey))
                """)
        case .loan(.renewed(let e)):
            try await session.run(
                "UPDATE loans SET due_at = \(Timestamp.format(e.dueAt)), renewals = \(e.renewals) WHERE id = \(e.loan.description)")
        case .loan(.returned(let e)):
            try await session.run("UPDATE loans SET returned_at = \(Timestamp.format(e.at)) WHERE id = \(e.loan.description)")
        case .loan(.noticeIssued(let e)):
            try await notice(
                try await Self.noticeID(e, session), member: e.member, loan: e.loan, hold: nil, title: e.bookTitle, e.kind, dueAt: e.dueAt,
                at: e.at, recorded, session)
        case .inbox(.noticesRead(let e)):
            try await session.run(
                """
                UPDATE notices SET read_at = \(Timestamp.format(recorded.metadata.recordedAt))
                WHERE id = ANY(\(e.notices)::text[]) AND member_id = \(e.member.description) AND read_at IS NULL
                """)
        case .hold(let event):
            guard let n = HoldNotice.of(event) else { return }
            try await notice(
                n.id, member: n.member, loan: nil, hold: n.hold, title: n.bookTitle, n.kind, dueAt: n.dueAt, at: n.at, recorded, session)
        case .user(.closed(let e)):
            // The member's name goes from their loans (erased: the read model keeps '' for it).
            try await session.run("UPDATE loans SET borrower_name = '' WHERE borrower_id = \(e.user.description)")
        case .user(.profileChanged(let e)):
            // A member's loans name them as they are called now.
            guard let name = e.displayName, !name.isEmpty else { return }
            try await session.run("UPDATE loans SET borrower_name = \(name) WHERE borrower_id = \(e.user.description)")
        case .book, .user, .emailClaim, .patron, .bookmark, .isbnClaim, .cardClaim, .walkIn, .appKey, .usernameClaim:
            return
        }
    }

    /// Stores a notice once: a second event for the same id (a repeat) leaves the first as it is.
    private func notice(
        _ id: String, member: UserID, loan: LoanID?, hold: HoldID?, title: String, _ kind: NoticeKind, dueAt: Date, at: Date,
        _ recorded: RecordedEvent, _ session: SQLSession
    ) async throws {
        try await session.run(
            """
            INSERT INTO notices (id, member_id, loan_id, hold_id, book_title, kind, due_at, issued_at, issued_position)
            VALUES (\(id), \(member.description), \(loan?.description), \(hold?.description), \(title), \(kind.rawValue),
                    \(Timestamp.format(dueAt)), \(Timestamp.format(at)), \(recorded.position))
            ON CONFLICT (id) DO NOTHING
            """)
    }

    /// A notice's id, as on SQLite (`LoansProjection.noticeID`): `<loan>:<kind>` for the first of
    /// its kind, `<loan>:<kind>@<due date>` for one issued again for a later due date.
    static func noticeID(_ e: NoticeIssued, _ session: SQLSession) async throws -> String {
        let due = Timestamp.format(e.dueAt)
        let first = try await session.value("SELECT due_at FROM notices WHERE id = \(e.id)", as: String.self)
        return first == nil || first == due ? e.id : "\(e.id)@\(due)"
    }

    /// The `loans` and `notices` tables (SQLite's after its `v12-holds` and `v13-cards`). Text
    /// compares byte by byte (`COLLATE "C"`), as SQLite's does, whatever the database's collation.
    static let migration = PostgresSchema.Migration(
        name: "loans-v1",
        sql: [
            """
            CREATE TABLE loans (
                id TEXT COLLATE "C" PRIMARY KEY,
                book_id TEXT COLLATE "C" NOT NULL,
                book_title TEXT NOT NULL,
                borrower_id TEXT COLLATE "C",
                borrower_name TEXT NOT NULL,
                lent_at TEXT COLLATE "C" NOT NULL,
                due_at TEXT COLLATE "C" NOT NULL,
                renewals BIGINT NOT NULL DEFAULT 0,
                returned_at TEXT COLLATE "C",
                borrower_key TEXT COLLATE "C"
            )
            """,
            "CREATE INDEX loans_by_borrower ON loans (borrower_id, due_at)",
            "CREATE INDEX loans_active_by_due ON loans (due_at) WHERE returned_at IS NULL",
            "CREATE INDEX loans_by_book ON loans (book_id)",
            "CREATE INDEX loans_by_walk_in ON loans (borrower_key, due_at) WHERE borrower_id IS NULL",
            """
            CREATE TABLE notices (
                id TEXT COLLATE "C" PRIMARY KEY,
                member_id TEXT COLLATE "C" NOT NULL,
                loan_id TEXT,
                hold_id TEXT,
                book_title TEXT NOT NULL,
                kind TEXT NOT NULL,
                due_at TEXT COLLATE "C" NOT NULL,
                issued_at TEXT NOT NULL,
                issued_position BIGINT NOT NULL,
                read_at TEXT
            )
            """,
            "CREATE INDEX notices_by_member ON notices (member_id, issued_position)",
        ])
}
