import Application
import Domain
import Foundation
import GRDB

/// Folds loan and inbox events into `loans` (who has which book, and the history) and
/// `notices` (per member, with when each was read): a loan's due-soon and overdue notices, and a
/// hold's ready-for-pickup and cancelled-with-its-book notices.
struct LoansProjection: SQLiteProjection {
    let name = "loans"

    func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM loans; DELETE FROM notices;")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        switch recorded.event {
        case .loan(.opened(let e)):
            try db.cached(
                sql: """
                    INSERT INTO loans (id, book_id, book_title, borrower_id, borrower_name, lent_at, due_at, borrower_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(Self.columns(of: e, dueAt: Timestamp.format(e.dueAt))))
        case .loan(.renewed(let e)):
            try db.cached(
                sql: "UPDATE loans SET due_at = ?, renewals = ? WHERE id = ?",
                arguments: [Timestamp.format(e.dueAt), e.renewals, e.loan.description])
        case .loan(.returned(let e)):
            try db.cached(sql: "UPDATE loans SET returned_at = ? WHERE id = ?", arguments: [Timestamp.format(e.at), e.loan.description])
        case .loan(.noticeIssued(let e)):
            try db.cached(
                sql: """
                    INSERT OR IGNORE INTO notices (id, member_id, loan_id, book_title, kind, due_at, issued_at, issued_position)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    try Self.noticeID(e, db), e.member.description, e.loan.description, e.bookTitle, e.kind.rawValue,
                    Timestamp.format(e.dueAt), Timestamp.format(e.at), recorded.position,
                ])
        case .inbox(.noticesRead(let e)):
            for id in e.notices {
                try db.cached(
                    sql: "UPDATE notices SET read_at = ? WHERE id = ? AND member_id = ? AND read_at IS NULL",
                    arguments: [Timestamp.format(recorded.metadata.recordedAt), id, e.member.description])
            }
        case .hold(let event):
            guard let told = HoldNotice.of(event) else { return }
            try notice(told, recorded, db)
        case .user(.closed(let e)):
            // The member's name goes from their loans (erased: the read model keeps '' for it).
            try db.cached(sql: "UPDATE loans SET borrower_name = '' WHERE borrower_id = ?", arguments: [e.user.description])
        case .user(.profileChanged(let e)):
            // A member's loans name them as they are called now.
            guard let name = e.displayName, !name.isEmpty else { return }
            try db.cached(sql: "UPDATE loans SET borrower_name = ? WHERE borrower_id = ?", arguments: [name, e.user.description])
        case .book, .user, .emailClaim, .patron, .bookmark, .isbnClaim, .cardClaim, .walkIn, .appKey, .usernameClaim:
            return
        }
    }

    /// id, book_id, book_title, borrower_id, borrower_name, lent_at, due_at, borrower_key: a loan as it opened.
    static func columns(of e: LoanOpened, dueAt: String) -> [(any DatabaseValueConvertible)?] {
        [
            e.loan.description, e.book.description, e.bookTitle, e.borrower?.description, e.borrowerName.known ?? "",
            Timestamp.format(e.lentAt), dueAt, e.borrower == nil ? e.borrowerName.known.map(WalkInName.key) : nil,
        ]
    }

    /// A notice about a hold (`HoldNotice`), each once.
    private func notice(_ n: HoldNotice, _ recorded: RecordedEvent, _ db: Database) throws {
        try db.cached(
            sql: """
                INSERT OR IGNORE INTO notices (id, member_id, hold_id, book_title, kind, due_at, issued_at, issued_position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                n.id, n.member.description, n.hold.description, n.bookTitle, n.kind.rawValue, Timestamp.format(n.dueAt),
                Timestamp.format(n.at), recorded.position,
            ])
    }

    /// A notice's id: `<loan>:<kind>` for the first of its kind, and `<loan>:<kind>@<due date>` for
    /// one issued again for a later due date (a renewal re-arms the due-soon notice). The first
    /// keeps the id older logs and their `inbox.notices-read` events name.
    static func noticeID(_ e: NoticeIssued, _ db: Database) throws -> String {
        let due = Timestamp.format(e.dueAt)
        let first = try String.fetchOne(db.cachedStatement(sql: "SELECT due_at FROM notices WHERE id = ?"), arguments: [e.id])
        return first == nil || first == due ? e.id : "\(e.id)@\(due)"
    }
}
