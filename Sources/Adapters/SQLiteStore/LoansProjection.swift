import Application
import Domain
import Foundation
import GRDB

/// Folds loan and inbox events into `loans` (who has which book, and the history) and
/// `notices` (per member, with when each was read).
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
                    INSERT INTO loans (id, book_id, book_title, borrower_id, borrower_name, lent_at, due_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    e.loan.description, e.book.description, e.bookTitle, e.borrower?.description, e.borrowerName,
                    Timestamp.format(e.lentAt), Timestamp.format(e.dueAt),
                ])
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
                    e.id, e.member.description, e.loan.description, e.bookTitle, e.kind.rawValue,
                    Timestamp.format(e.dueAt), Timestamp.format(e.at), recorded.position,
                ])
        case .inbox(.noticesRead(let e)):
            for id in e.notices {
                try db.cached(
                    sql: "UPDATE notices SET read_at = ? WHERE id = ? AND member_id = ? AND read_at IS NULL",
                    arguments: [Timestamp.format(recorded.metadata.recordedAt), id, e.member.description])
            }
        case .book, .user, .emailClaim, .patron, .bookmark:
            return
        }
    }
}

/// The loans and notices read models.
public struct SQLiteLoans: LoanRegister, NoticeBoard {
    let pool: DatabasePool

    public func loans(_ filter: LoanFilter) async throws -> [LoanSummary] {
        var clauses: [String] = []
        var arguments: StatementArguments = []
        if let member = filter.member { clauses.append("borrower_id = ?"); arguments += [member.description] }
        if let book = filter.book { clauses.append("book_id = ?"); arguments += [book.description] }
        // With `dueBy`, `returned_at IS NULL AND due_at <= ?` is the SQL mirror of LoanPolicy.isOverdue
        // (not returned, due at or before the instant): timestamps are fixed-width UTC text, so text
        // order is time order, to the millisecond the log stores. OverdueMirrorTests keeps them equal.
        if !filter.includeReturned || filter.dueBy != nil { clauses.append("returned_at IS NULL") }
        if let dueBy = filter.dueBy { clauses.append("due_at <= ?"); arguments += [Timestamp.format(dueBy)] }
        let whereClause = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let sql = "SELECT * FROM loans \(whereClause) ORDER BY returned_at IS NOT NULL, returned_at DESC, due_at, id"
        let bound = arguments
        return try pool.readHere { db in try Row.fetchAll(db, sql: sql, arguments: bound).map(Self.loan) }
    }

    public func loan(_ id: LoanID) async throws -> LoanSummary? {
        try pool.readHere { db in try Row.fetchOne(db, sql: "SELECT * FROM loans WHERE id = ?", arguments: [id.description]).map(Self.loan)
        }
    }

    public func notices(of member: UserID, limit: Int) async throws -> (items: [NoticeSummary], unread: Int) {
        try pool.readHere { db in
            let unread =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM notices WHERE member_id = ? AND read_at IS NULL",
                    arguments: [member.description]) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM notices WHERE member_id = ? ORDER BY issued_position DESC LIMIT ?",
                arguments: [member.description, min(limit, 10_000)])
            return (try rows.map(Self.notice), unread)
        }
    }

    private static func loan(_ row: Row) throws -> LoanSummary {
        guard let id = LoanID(row["id"] as String), let book = BookID(row["book_id"] as String) else {
            throw DatabaseError(message: "bad loan row")
        }
        return LoanSummary(
            id: id, book: book, bookTitle: row["book_title"], borrower: (row["borrower_id"] as String?).flatMap(UserID.init),
            borrowerName: row["borrower_name"], lentAt: try Timestamp.parse(row["lent_at"]), dueAt: try Timestamp.parse(row["due_at"]),
            renewals: row["renewals"], returnedAt: try (row["returned_at"] as String?).map(Timestamp.parse))
    }

    private static func notice(_ row: Row) throws -> NoticeSummary {
        guard let loan = LoanID(row["loan_id"] as String), let kind = NoticeKind(rawValue: row["kind"]) else {
            throw DatabaseError(message: "bad notice row")
        }
        return NoticeSummary(
            id: row["id"], loan: loan, bookTitle: row["book_title"], kind: kind, dueAt: try Timestamp.parse(row["due_at"]),
            issuedAt: try Timestamp.parse(row["issued_at"]), read: (row["read_at"] as String?) != nil)
    }
}
