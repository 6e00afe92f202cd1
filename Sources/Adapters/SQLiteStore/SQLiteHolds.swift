import Application
import Domain
import Foundation
import GRDB

/// The holds read model, queried from `holds` a page at a time, with each waiting hold's place
/// in line and the book's copies.
public struct SQLiteHolds: HoldRegister {
    let reads: ReadConnections

    /// A hold's row with its place among the waiting of its book (null unless waiting) and the copies owned.
    private static let select = """
        SELECT h.*, COALESCE(c.copies, 0) AS copies,
               CASE WHEN h.status = 'waiting' THEN (
                   SELECT COUNT(*) FROM holds w
                   WHERE w.book_id = h.book_id AND w.status = 'waiting' AND w.placed_position <= h.placed_position)
               END AS position
        FROM holds h LEFT JOIN catalogue_books c ON c.id = h.book_id
        """

    public func hold(_ id: HoldID) async throws -> HoldSummary? {
        try reads.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "\(Self.select) WHERE h.id = ?"), arguments: [id.description]).map(Self.hold)
        }
    }

    public func holds(_ filter: HoldFilter, page: PageRequest) async throws -> Page<HoldSummary> {
        var clauses = ["h.status IN (\(filter.statuses.map { _ in "?" }.joined(separator: ", ")))"]
        var arguments = StatementArguments(filter.statuses.map(\.rawValue))
        if let member = filter.member { clauses.append("h.member_id = ?"); arguments += [member.description] }
        if let book = filter.book { clauses.append("h.book_id = ?"); arguments += [book.description] }
        let whereClause = "WHERE " + clauses.joined(separator: " AND ")
        // The copies to set aside, soonest pickup date first; any other list in the order of the line.
        let order = filter.statuses == [.ready] ? "h.pickup_until, h.id" : "h.placed_position"
        return try reads.read { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM holds h \(whereClause)"), arguments: arguments) ?? 0
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "\(Self.select) \(whereClause) ORDER BY \(order) LIMIT ? OFFSET ?"),
                arguments: arguments + [page.limit, page.offset])
            return Page(items: try rows.map(Self.hold), total: total, of: page)
        }
    }

    /// `pickup_until <= ?` is the SQL mirror of `LoanPolicy.isPickupOver` (over from the instant on).
    public func booksWithPickupOver(at now: Date) async throws -> [BookID] {
        try reads.read { db in
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT DISTINCT book_id FROM holds WHERE status = 'ready' AND pickup_until <= ? ORDER BY book_id"),
                arguments: [Timestamp.bound(now)]
            ).compactMap(BookID.init)
        }
    }

    private static func hold(_ row: Row) throws -> HoldSummary {
        guard let id = HoldID(row["id"] as String), let book = BookID(row["book_id"] as String),
            let member = UserID(row["member_id"] as String), let status = HoldSummary.Status(rawValue: row["status"])
        else { throw DatabaseError(message: "bad hold row") }
        return HoldSummary(
            id: id, book: book, bookTitle: row["book_title"], member: member, memberName: row["member_name"],
            placedAt: try Timestamp.parse(row["placed_at"]), status: status, position: row["position"],
            pickupUntil: try (row["pickup_until"] as String?).map(Timestamp.parse), copies: row["copies"])
    }
}
