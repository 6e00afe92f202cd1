import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// The holds read model on PostgreSQL, queried from `holds` a page at a time, with each waiting
/// hold's place in line and the book's copies (from the catalogue's `catalogue_books`), in
/// SQLite's orders (`SQLiteHolds`).
public struct PostgresHolds: HoldRegister {
    let client: PostgresPool
    let logger: Logger

    /// A hold's columns with its place among the waiting of its book (null unless waiting) and the copies owned.
    private static let select = """
        SELECT h.id, h.book_id, h.book_title, h.member_id, h.member_name, h.placed_at, h.status, h.pickup_until,
               COALESCE(c.copies, 0),
               CASE WHEN h.status = 'waiting' THEN (
                   SELECT COUNT(*) FROM holds w
                   WHERE w.book_id = h.book_id AND w.status = 'waiting' AND w.placed_position <= h.placed_position)
               END
        FROM holds h LEFT JOIN catalogue_books c ON c.id = h.book_id
        """
    private typealias HoldRow = (String, String, String, String, String, String, String, String?, Int, Int?)

    public func hold(_ id: HoldID) async throws -> HoldSummary? {
        try await client.session(logger) { session in
            try await session.rows("\(unescaped: Self.select) WHERE h.id = \(id.description)", as: HoldRow.self).first.map(Self.hold)
        }
    }

    public func holds(_ filter: HoldFilter, page: PageRequest) async throws -> Page<HoldSummary> {
        // The copies to set aside, soonest pickup date first; any other list in the order of the line.
        let order = filter.statuses == [.ready] ? "ORDER BY h.pickup_until, h.id" : "ORDER BY h.placed_position"
        return try await client.session(logger) { session in
            try await session.snapshot {
                let total = try await session.value(Self.matching(filter, "SELECT COUNT(*) FROM holds h"), as: Int.self) ?? 0
                let rows = try await session.rows(Self.matching(filter, Self.select, order, page), as: HoldRow.self)
                return Page(items: try rows.map(Self.hold), total: total, of: page)
            }
        }
    }

    /// The holds matching a filter, as `SQLiteHolds` selects them: a criterion left nil matches every hold.
    private static func matching(_ filter: HoldFilter, _ head: String, _ order: String = "", _ page: PageRequest? = nil)
        -> PostgresQuery
    {
        let statuses = filter.statuses.map(\.rawValue)
        let member = filter.member?.description
        let book = filter.book?.description
        return """
            \(unescaped: head)
            WHERE h.status = ANY(\(statuses)::text[]) AND (\(member)::text IS NULL OR h.member_id = \(member))
              AND (\(book)::text IS NULL OR h.book_id = \(book))
            \(unescaped: order) LIMIT \(page?.limit) OFFSET \(page?.offset ?? 0)
            """
    }

    /// `pickup_until <= now` is the SQL mirror of `LoanPolicy.isPickupOver` (over from the instant on).
    public func booksWithPickupOver(at now: Date) async throws -> [BookID] {
        try await client.session(logger) { session in
            try await session.column(
                "SELECT DISTINCT book_id FROM holds WHERE status = 'ready' AND pickup_until <= \(Timestamp.bound(now)) ORDER BY book_id",
                as: String.self
            ).compactMap(BookID.init)
        }
    }

    private static func hold(_ row: HoldRow) throws -> HoldSummary {
        let (id, book, title, member, name, placedAt, status, pickupUntil, copies, position) = row
        guard let hold = HoldID(id), let book = BookID(book), let member = UserID(member), let status = HoldSummary.Status(rawValue: status)
        else { throw UnreadableReadModelRow(table: "holds", id: id) }
        return HoldSummary(
            id: hold, book: book, bookTitle: title, member: member, memberName: name, placedAt: try Timestamp.parse(placedAt),
            status: status, position: position, pickupUntil: try pickupUntil.map(Timestamp.parse), copies: copies)
    }
}

extension PostgresLibrary {
    /// The holds read model (`LibraryDatabase.holds` on SQLite).
    public var holds: PostgresHolds { PostgresHolds(client: client, logger: logger) }
}
