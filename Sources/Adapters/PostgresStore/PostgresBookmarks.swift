import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// Folds bookmark events into `bookmarks`, one row per member and key, as SQLite's
/// `BookmarksProjection` does (same name, same rows; the authors as a text array).
struct PostgresBookmarksProjection: PostgresProjection {
    let name = "bookmarks"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM bookmarks")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        switch recorded.event {
        case .bookmark(.added(let e)):
            let s = e.snapshot
            try await session.run(
                """
                INSERT INTO bookmarks (member_id, key, book_id, title, title_key, authors, first_publish_year, cover_id,
                    rating_average, bookmarked_at, position)
                VALUES (\(e.member.description), \(e.key), \(e.book?.description), \(s.title), \(Self.sortKey(s.title)), \(s.authors),
                    \(s.firstPublishYear), \(s.coverID), \(s.ratingAverage), \(Timestamp.format(recorded.metadata.recordedAt)),
                    \(recorded.position))
                ON CONFLICT (member_id, key) DO UPDATE SET book_id = excluded.book_id, title = excluded.title,
                    title_key = excluded.title_key, authors = excluded.authors, first_publish_year = excluded.first_publish_year,
                    cover_id = excluded.cover_id, rating_average = excluded.rating_average, bookmarked_at = excluded.bookmarked_at,
                    position = excluded.position
                """)
        case .bookmark(.removed(let e)):
            try await session.run("DELETE FROM bookmarks WHERE member_id = \(e.member.description) AND key = \(e.key)")
        default:
            return
        }
    }

    /// Case- and accent-insensitive ordering key of a title, as SQLite's `CatalogueProjection.sortKey`.
    static func sortKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The `bookmarks` table (SQLite's of `v6-bookmarks`), text compared byte by byte as on SQLite.
    static let migration = PostgresSchema.Migration(
        name: "bookmarks-v1",
        sql: [
            """
            CREATE TABLE bookmarks (
                member_id TEXT COLLATE "C" NOT NULL,
                key TEXT COLLATE "C" NOT NULL,
                book_id TEXT,
                title TEXT NOT NULL,
                title_key TEXT COLLATE "C" NOT NULL,
                authors TEXT[] NOT NULL,
                first_publish_year BIGINT,
                cover_id BIGINT,
                rating_average DOUBLE PRECISION,
                bookmarked_at TEXT NOT NULL,
                position BIGINT NOT NULL,
                PRIMARY KEY (member_id, key)
            )
            """
        ])
}

/// The bookmarks read model on PostgreSQL, shaped like search results (covers built from the
/// covers base URL), in SQLite's orders (`SQLiteBookmarks`).
public struct PostgresBookmarks: BookmarkShelf {
    let client: PostgresPool
    let logger: Logger
    let coversURL: String
    private typealias BookmarkRow = (String, String?, String, [String], Int?, Int?, Double?, String)

    public func bookmarks(of member: UserID, sort: BookmarkSort, page: PageRequest) async throws -> Page<BookmarkEntry> {
        // A key is bookmarked once per member, so the key breaks any tie left.
        let order = sort == .title ? "title_key, position DESC, key" : "position DESC, key"
        return try await client.session(logger) { session in
            try await session.snapshot {
                let total =
                    try await session.value("SELECT COUNT(*) FROM bookmarks WHERE member_id = \(member.description)", as: Int.self) ?? 0
                let rows = try await session.rows(
                    """
                    SELECT key, book_id, title, authors, first_publish_year, cover_id, rating_average, bookmarked_at FROM bookmarks
                    WHERE member_id = \(member.description) ORDER BY \(unescaped: order) LIMIT \(page.limit) OFFSET \(page.offset)
                    """, as: BookmarkRow.self)
                return Page(items: try rows.map(entry), total: total, of: page)
            }
        }
    }

    private func entry(_ row: BookmarkRow) throws -> BookmarkEntry {
        let (key, book, title, authors, firstPublishYear, coverID, ratingAverage, bookmarkedAt) = row
        let work = WorkResult(
            workKey: key, title: title, authors: authors, firstPublishYear: firstPublishYear, editionCount: nil, isbns: [],
            coverID: coverID, ratingAverage: ratingAverage, ratingCount: nil, readingLogCount: nil,
            covers: coverID.map { CoverURLs.openLibrary(base: coversURL, path: "id/\($0)") })
        return BookmarkEntry(key: key, work: work, book: book.flatMap(BookID.init), bookmarkedAt: try Timestamp.parse(bookmarkedAt))
    }
}

extension PostgresLibrary {
    /// The bookmarks read model; cover URLs are made under `coversURL` (`LibraryDatabase.bookmarkShelf` on SQLite).
    public func bookmarkShelf(coversURL: String) -> PostgresBookmarks {
        PostgresBookmarks(client: client, logger: logger, coversURL: coversURL)
    }
}
