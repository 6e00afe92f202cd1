import Application
import Domain
import Foundation
import Hummingbird

/// The reading list: bookmarked works and catalogue books, newest first or by title, each with Remove.
struct BookmarkPages: Sendable {
    let site: Site
    static let pageSize = 20

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/bookmarks") { request, _ in try await bookmarks(request) }
    }

    func bookmarks(_ request: Request) async throws -> Response {
        _ = try site.visit.requireUser()
        let query = Form.query(of: request)
        let sort = query["sort"].flatMap(BookmarkSort.init(rawValue:)) ?? .newest
        let offset = query.offset
        let page = try await site.library.bookmarks.list(
            sort: sort, page: try PageRequest(limit: Self.pageSize, offset: offset), by: site.visit.principal)
        var cells: [BookmarkCell] = []
        for entry in page.items { cells.append(BookmarkCell(entry, cover: try await cover(of: entry))) }
        let sorts = [(BookmarkSort.newest, t("web.bookmarks.sort.newest")), (.title, t("web.bookmarks.sort.title"))].map {
            SortOption(value: $0.0.rawValue, label: $0.1, selected: $0.0 == sort)
        }
        let view = BookmarksView(
            bookmarks: cells, total: page.total, sorts: sorts,
            pager: Pager(page, path: "/bookmarks", keeping: ["sort": sort == .newest ? nil : sort.rawValue]), back: site.visit.target)
        return site.pages.render("bookmarks", view, title: t("web.bookmarks.heading"))
    }

    /// A work's cover from the search, a catalogue book's from the catalogue (none once it left it).
    private func cover(of entry: BookmarkEntry) async throws -> String? {
        guard let book = entry.book else { return Covers.safe(entry.work.covers?.medium) }
        do {
            return Covers.safe(try await site.library.catalogue.showBook.execute(book, by: site.visit.principal).details.coverURL)
        } catch is NotFound {
            return nil
        }
    }
}

/// One bookmark, in the shape of a search result.
struct BookmarkCell: Sendable {
    /// The bookmark's key, as Remove sends it: `OL…W` or `book:<id>`.
    let key: String
    let title: String
    let authors: String
    let year: String?
    let cover: String?
    /// The catalogue book the bookmark is of, if any: its page is linked.
    let book: String?
    /// The work on Open Library, for a bookmarked work.
    let workURL: String?
    /// "Bookmarked on November 22, 2026".
    let bookmarked: String
    let coverAlt: String

    init(_ entry: BookmarkEntry, cover: String?) {
        key = entry.key
        title = entry.work.title
        authors = entry.work.authors.joined(separator: ", ")
        year = entry.work.firstPublishYear.map(String.init)
        self.cover = cover
        book = entry.book?.description
        workURL = entry.book == nil ? "https://openlibrary.org/works/\(PathID.encode(entry.work.workKey))" : nil
        bookmarked = t("web.bookmarks.on", Dates.day(entry.bookmarkedAt))
        coverAlt = Covers.alt(entry.work.title, present: cover != nil)
    }
}

struct BookmarksView: Sendable {
    let bookmarks: [BookmarkCell]
    let total: Int
    /// "3 on your reading list".
    let count: String
    let sorts: [SortOption]
    let pager: Pager
    /// Whether there is another page to link to (no empty navigation otherwise).
    let paged: Bool
    /// This page, to come back to after a removal.
    let back: String
    let isEmpty: Bool

    init(bookmarks: [BookmarkCell], total: Int, sorts: [SortOption], pager: Pager, back: String) {
        self.bookmarks = bookmarks
        self.total = total
        count = t("web.bookmarks.count", count: total, number(total))
        self.sorts = sorts
        self.pager = pager
        paged = pager.previous != nil || pager.next != nil
        self.back = back
        isEmpty = bookmarks.isEmpty
    }
}
