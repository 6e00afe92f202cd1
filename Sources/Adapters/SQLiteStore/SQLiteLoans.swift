import Application
import Domain
import Foundation
import GRDB

/// The loans and notices read models, queried from `loans` and `notices` a page at a time.
public struct SQLiteLoans: LoanRegister, NoticeBoard {
    let reads: ReadConnections

    /// Active loans by due date, then returned ones newest first; the id breaks ties, so pages never overlap.
    private static let loanOrder = "returned_at IS NOT NULL, returned_at DESC, due_at, id"

    public func loans(_ filter: LoanFilter) async throws -> [LoanSummary] {
        let (whereClause, arguments) = Self.filtering(filter)
        return try reads.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM loans \(whereClause) ORDER BY \(Self.loanOrder)"), arguments: arguments)
                .map(Self.loan)
        }
    }

    public func loans(_ filter: LoanFilter, page: PageRequest) async throws -> Page<LoanSummary> {
        let (whereClause, arguments) = Self.filtering(filter)
        return try reads.read { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM loans \(whereClause)"), arguments: arguments) ?? 0
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM loans \(whereClause) ORDER BY \(Self.loanOrder) LIMIT ? OFFSET ?"),
                arguments: arguments + [page.limit, page.offset])
            return Page(items: try rows.map(Self.loan), total: total, of: page)
        }
    }

    public func loan(_ id: LoanID) async throws -> LoanSummary? {
        try reads.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM loans WHERE id = ?"), arguments: [id.description]).map(Self.loan)
        }
    }

    public func notices(of member: UserID, page: PageRequest) async throws -> NoticePage {
        try reads.read { db in
            let counts = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT COUNT(*) AS total, COALESCE(SUM(read_at IS NULL), 0) AS unread FROM notices WHERE member_id = ?"),
                arguments: [member.description])
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM notices WHERE member_id = ? ORDER BY issued_position DESC, id LIMIT ? OFFSET ?"),
                arguments: [member.description, page.limit, page.offset])
            let items = try rows.map(Self.notice)
            return NoticePage(page: Page(items: items, total: counts?["total"] ?? 0, of: page), unread: counts?["unread"] ?? 0)
        }
    }

    public func noticeIDs(of member: UserID) async throws -> [String] {
        try reads.read { db in
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM notices WHERE member_id = ? ORDER BY issued_position"),
                arguments: [member.description])
        }
    }

    /// The WHERE clause of a filter and its arguments.
    private static func filtering(_ filter: LoanFilter) -> (String, StatementArguments) {
        var clauses: [String] = []
        var arguments: StatementArguments = []
        if let member = filter.member { clauses.append("borrower_id = ?"); arguments += [member.description] }
        if let book = filter.book { clauses.append("book_id = ?"); arguments += [book.description] }
        if let name = filter.walkIn {
            clauses.append("borrower_id IS NULL AND borrower_key = ?")
            arguments += [WalkInName.key(name)]
        }
        // With `dueBy`, `returned_at IS NULL AND due_at <= ?` is the SQL mirror of LoanPolicy.isOverdue
        // (not returned, due at or before the instant): timestamps are fixed-width UTC text, so text
        // order is time order, to the millisecond the log stores. OverdueMirrorTests keeps them equal.
        if !filter.includeReturned || filter.dueBy != nil { clauses.append("returned_at IS NULL") }
        if let dueBy = filter.dueBy { clauses.append("due_at <= ?"); arguments += [Timestamp.bound(dueBy)] }
        return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), arguments)
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
        guard let kind = NoticeKind(rawValue: row["kind"]) else { throw DatabaseError(message: "bad notice row") }
        return NoticeSummary(
            id: row["id"], loan: (row["loan_id"] as String?).flatMap(LoanID.init), hold: (row["hold_id"] as String?).flatMap(HoldID.init),
            bookTitle: row["book_title"], kind: kind, dueAt: try Timestamp.parse(row["due_at"]),
            issuedAt: try Timestamp.parse(row["issued_at"]), read: (row["read_at"] as String?) != nil)
    }
}
