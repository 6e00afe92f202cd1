import Application
import Domain
import Foundation
import GRDB

/// Folds bookmark events into `bookmarks`, one row per member and key.
struct BookmarksProjection: SQLiteProjection {
    let name = "bookmarks"

    func reset(_ db: Database) throws {
        try db.cached(sql: "DELETE FROM bookmarks")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        switch recorded.event {
        case .bookmark(.added(let e)):
            let s = e.snapshot
            try db.cached(
                sql: """
                    INSERT OR REPLACE INTO bookmarks (member_id, key, book_id, title, title_key, authors, first_publish_year, cover_id,
                        rating_average, bookmarked_at, position)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    e.member.description, e.key, e.book?.description, s.title, CatalogueProjection.sortKey(s.title),
                    JSONStringArray.encode(s.authors), s.firstPublishYear, s.coverID, s.ratingAverage,
                    Timestamp.format(recorded.metadata.recordedAt), recorded.position,
                ])
        case .bookmark(.removed(let e)):
            try db.cached(sql: "DELETE FROM bookmarks WHERE member_id = ? AND key = ?", arguments: [e.member.description, e.key])
        case .book, .user, .emailClaim, .loan, .patron, .inbox, .isbnClaim, .hold, .cardClaim, .walkIn, .appKey, .usernameClaim:
            return
        }
    }
}

/// The bookmarks read model, shaped like search results (covers built from the covers base URL).
public struct SQLiteBookmarks: BookmarkShelf {
    let reads: ReadConnections
    let coversURL: String

    public func bookmarks(of member: UserID, sort: BookmarkSort, page: PageRequest) async throws -> Page<BookmarkEntry> {
        // A key is bookmarked once per member, so the key breaks any tie left.
        let order = sort == .title ? "title_key, position DESC, key" : "position DESC, key"
        let covers = coversURL
        return try reads.read { db in
            let total =
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT COUNT(*) FROM bookmarks WHERE member_id = ?"), arguments: [member.description]) ?? 0
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM bookmarks WHERE member_id = ? ORDER BY \(order) LIMIT ? OFFSET ?"),
                arguments: [member.description, page.limit, page.offset])
            let items = try rows.map { row in
                let key: String = row["key"]
                let coverID: Int? = row["cover_id"]
                let work = WorkResult(
                    workKey: key, title: row["title"],
                    authors: try JSONStringArray.decode(row["authors"]),
                    firstPublishYear: row["first_publish_year"], editionCount: nil, isbns: [], coverID: coverID,
                    ratingAverage: row["rating_average"], ratingCount: nil, readingLogCount: nil,
                    covers: coverID.map { CoverURLs.openLibrary(base: covers, path: "id/\($0)") })
                return BookmarkEntry(
                    key: key, work: work, book: (row["book_id"] as String?).flatMap(BookID.init),
                    bookmarkedAt: try Timestamp.parse(row["bookmarked_at"]))
            }
            return Page(items: items, total: total, of: page)
        }
    }
}

extension LibraryDatabase {
    /// The bookmarks read model; cover URLs are made under `coversURL`.
    public func bookmarkShelf(coversURL: String) -> SQLiteBookmarks { SQLiteBookmarks(reads: reads, coversURL: coversURL) }
}
