import Domain
import Foundation

/// A member's bookmarks: of Open Library works (snapshot taken from a search by key) or of
/// catalogue books. Private to the member; adding twice and removing twice change nothing.
public struct Bookmarks: Sendable {
    let runner: CommandRunner
    let search: SearchBooks
    let catalogue: any Catalogue
    let shelf: any BookmarkShelf

    public init(runner: CommandRunner, search: SearchBooks, catalogue: any Catalogue, shelf: any BookmarkShelf) {
        self.runner = runner
        self.search = search
        self.catalogue = catalogue
        self.shelf = shelf
    }

    /// Bookmarks an Open Library work, `OL…W` or `/works/OL…W`.
    public func add(work rawKey: String, by principal: Principal) async throws -> Page<BookmarkEntry> {
        let (member, _) = try Authorization.user(.keepBookmarks, by: principal)
        let key = rawKey.split(separator: "/").last.map(String.init) ?? rawKey
        guard key.hasPrefix("OL"), key.hasSuffix("W"), key.count <= 20, key.dropFirst(2).dropLast().allSatisfy(\.isNumber) else {
            throw InvalidInput("workKey", .notAWorkKey)
        }
        let page = try await search.execute(SearchQuery(text: "key:/works/\(key)", limit: 1))
        guard let work = page.results.first(where: { $0.workKey == key }) else { throw NotFound(.work, key) }
        let snapshot = BookmarkSnapshot(
            title: work.title, authors: work.authors, firstPublishYear: work.firstPublishYear, coverID: work.coverID,
            ratingAverage: work.ratingAverage)
        return try await record(.add(BookmarkAdded(member: member, key: key, book: nil, snapshot: snapshot)), member, principal)
    }

    /// Bookmarks a catalogue book.
    public func add(book: BookID, by principal: Principal) async throws -> Page<BookmarkEntry> {
        let (member, _) = try Authorization.user(.keepBookmarks, by: principal)
        guard let entry = try await catalogue.entry(book) else { throw NotFound(.book, book.description) }
        let snapshot = BookmarkSnapshot(
            title: entry.details.title, authors: entry.details.authors, firstPublishYear: nil, coverID: nil, ratingAverage: nil)
        let added = BookmarkAdded(member: member, key: BookmarkAggregate.key(of: book), book: book, snapshot: snapshot)
        return try await record(.add(added), member, principal)
    }

    /// Removes a bookmark by its key (`OL…W` or `book:<id>`).
    public func remove(_ key: String, by principal: Principal) async throws {
        let (member, _) = try Authorization.user(.keepBookmarks, by: principal)
        _ = try await record(.remove(member: member, key: key), member, principal)
    }

    /// One page of the principal's bookmarks in the requested order.
    public func list(sort: BookmarkSort = .newest, page: PageRequest = .first, by principal: Principal) async throws
        -> Page<BookmarkEntry>
    {
        try await shelf.bookmarks(of: try Authorization.user(.keepBookmarks, by: principal).0, sort: sort, page: page)
    }

    /// Records the change and answers the first page of the bookmarks, newest first.
    private func record(_ command: BookmarkCommand, _ member: UserID, _ principal: Principal) async throws -> Page<BookmarkEntry> {
        try await runner.transact(BookmarkAggregate.self, .bookmarks(member), by: principal) { try BookmarkAggregate.decide(command, $0) }
        return try await shelf.bookmarks(of: member, sort: .newest, page: .first)
    }
}
