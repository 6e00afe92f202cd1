import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// The loans and notices read models on PostgreSQL, queried from `loans` and `notices` a page at a
/// time, in SQLite's orders (`SQLiteLoans`).
public struct PostgresLoans: LoanRegister, NoticeBoard {
    let client: PostgresPool
    let logger: Logger

    /// Active loans by due date, then returned ones newest first; the id breaks ties, so pages never overlap.
    private static let loanOrder = "ORDER BY returned_at IS NOT NULL, returned_at DESC, due_at, id"
    private static let loanColumns =
        "id, book_id, book_title, borrower_id, borrower_name, lent_at, due_at, renewals, returned_at"
    private typealias LoanRow = (String, String, String, String?, String, String, String, Int, String?)
    private typealias NoticeRow = (String, String?, String?, String, String, String, String, String?)

    public func loans(_ filter: LoanFilter) async throws -> [LoanSummary] {
        try await client.session(logger) { session in
            try await session.rows(Self.matching(filter, Self.loanColumns, Self.loanOrder), as: LoanRow.self).map(Self.loan)
        }
    }

    public func loans(_ filter: LoanFilter, page: PageRequest) async throws -> Page<LoanSummary> {
        try await client.session(logger) { session in
            try await session.snapshot {
                let total = try await session.value(Self.matching(filter, "COUNT(*)"), as: Int.self) ?? 0
                let rows = try await session.rows(Self.matching(filter, Self.loanColumns, Self.loanOrder, page), as: LoanRow.self)
                return Page(items: try rows.map(Self.loan), total: total, of: page)
            }
        }
    }

    public func loan(_ id: LoanID) async throws -> LoanSummary? {
        try await client.session(logger) { session in
            try await session.rows(
                "SELECT \(unescaped: Self.loanColumns) FROM loans WHERE id = \(id.description)", as: LoanRow.self
            ).first.map(Self.loan)
        }
    }

    public func notices(of member: UserID, page: PageRequest) async throws -> NoticePage {
        try await client.session(logger) { session in
            try await session.snapshot {
                let counts = try await session.rows(
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE read_at IS NULL) FROM notices WHERE member_id = \(member.description)",
                    as: (Int, Int).self
                ).first
                let rows = try await session.rows(
                    """
                    SELECT id, loan_id, hold_id, book_title, kind, due_at, issued_at, read_at FROM notices
                    WHERE member_id = \(member.description) ORDER BY issued_position DESC, id LIMIT \(page.limit) OFFSET \(page.offset)
                    """, as: NoticeRow.self)
                return NoticePage(page: Page(items: try rows.map(Self.notice), total: counts?.0 ?? 0, of: page), unread: counts?.1 ?? 0)
            }
        }
    }

    public func noticeIDs(of member: UserID) async throws -> [String] {
        try await client.session(logger) { session in
            try await session.column(
                "SELECT id FROM notices WHERE member_id = \(member.description) ORDER BY issued_position", as: String.self)
        }
    }

    /// The loans matching a filter, as SQLite's `SQLiteLoans.filtering` selects them: a criterion
    /// left nil matches every loan. With `dueBy`, `returned_at IS NULL AND due_at <= dueBy` is the
    /// SQL mirror of `LoanPolicy.isOverdue` (fixed-width UTC text: text order is time order).
    private static func matching(_ filter: LoanFilter, _ columns: String, _ order: String = "", _ page: PageRequest? = nil)
        -> PostgresQuery
    {
        let member = filter.member?.description
        let book = filter.book?.description
        let walkIn = filter.walkIn.map(WalkInName.key)
        let activeOnly = !filter.includeReturned || filter.dueBy != nil
        let dueBy = filter.dueBy.map(Timestamp.bound)
        return """
            SELECT \(unescaped: columns) FROM loans
            WHERE (\(member)::text IS NULL OR borrower_id = \(member))
              AND (\(book)::text IS NULL OR book_id = \(book))
              AND (\(walkIn)::text IS NULL OR (borrower_id IS NULL AND borrower_key = \(walkIn)))
              AND (NOT \(activeOnly) OR returned_at IS NULL)
              AND (\(dueBy)::text IS NULL OR due_at <= \(dueBy))
            \(unescaped: order) LIMIT \(page?.limit) OFFSET \(page?.offset ?? 0)
            """
    }

    private static func loan(_ row: LoanRow) throws -> LoanSummary {
        let (id, book, title, borrower, name, lentAt, dueAt, renewals, returnedAt) = row
        guard let loan = LoanID(id), let book = BookID(book) else { throw UnreadableReadModelRow(table: "loans", id: id) }
        return LoanSummary(
            id: loan, book: book, bookTitle: title, borrower: borrower.flatMap(UserID.init), borrowerName: name,
            lentAt: try Timestamp.parse(lentAt), dueAt: try Timestamp.parse(dueAt), renewals: renewals,
            returnedAt: try returnedAt.map(Timestamp.parse))
    }

    private static func notice(_ row: NoticeRow) throws -> NoticeSummary {
        let (id, loan, hold, title, kind, dueAt, issuedAt, readAt) = row
        guard let kind = NoticeKind(rawValue: kind) else { throw UnreadableReadModelRow(table: "notices", id: id) }
        return NoticeSummary(
            id: id, loan: loan.flatMap(LoanID.init), hold: hold.flatMap(HoldID.init), bookTitle: title, kind: kind,
            dueAt: try Timestamp.parse(dueAt), issuedAt: try Timestamp.parse(issuedAt), read: readAt != nil)
    }
}

extension PostgresLibrary {
    /// The loans and notices read models (`LibraryDatabase.loans` on SQLite).
    public var loans: PostgresLoans { PostgresLoans(client: client, logger: logger) }
}
