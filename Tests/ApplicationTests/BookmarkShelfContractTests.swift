import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The bookmarks read model of this adapter, covers under `coversURL`.
    func bookmarkShelf(coversURL: String) -> any BookmarkShelf {
        sqlite?.bookmarkShelf(coversURL: coversURL) ?? postgres!.bookmarkShelf(coversURL: coversURL)
    }
}

/// The bookmarks read model's contract (`BookmarkShelf`), on every store adapter: a member's
/// bookmarks newest first or by title (case and accents aside), ties by the newest then the key,
/// shaped as search results with covers under the given base URL.
@Suite("Bookmarks read model (contract)")
struct BookmarkShelfContractTests {
    typealias L = LoanRegisterContractTests
    static let covers = "https://covers.example"

    static func added(_ key: String, _ title: String, by member: UserID = L.ada, book: BookID? = nil, cover: Int? = nil) -> DomainEvent {
        .bookmark(
            .added(
                BookmarkAdded(
                    member: member, key: key, book: book,
                    snapshot: BookmarkSnapshot(
                        title: title, authors: ["A. \"Q\" Author", "B/C"], firstPublishYear: 1965, coverID: cover, ratingAverage: 4.25))))
    }

    static func removed(_ key: String, by member: UserID = L.ada) -> DomainEvent {
        .bookmark(.removed(BookmarkRemoved(member: member, key: key)))
    }

    @Test("newest first or by title with case and accents folded; ties by newest then key; paged", arguments: LibraryFactory.all)
    func order(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let shelf = lib.bookmarkShelf(coversURL: Self.covers)
        try await lib.append(
            .bookmarks(L.ada), Self.added("/works/OL5W", "zebra"), Self.added("/works/OL4W", "Émile"), Self.added("/works/OL3W", "apple"),
            Self.added("/works/OL2W", "Eagle"), Self.added("/works/OL1W", "Same"), Self.added("/works/OL9W", "same"))
        try await lib.append(.bookmarks(L.bob), Self.added("/works/OL6W", "Bob's", by: L.bob))

        func keys(_ sort: BookmarkSort, limit: Int = 100) async throws -> [String] {
            let walked = try await walkPages(limit: limit) { try await shelf.bookmarks(of: L.ada, sort: sort, page: $0) }
            #expect(walked.total == 6)
            return walked.items.map(\.key)
        }
        let newest = ["/works/OL9W", "/works/OL1W", "/works/OL2W", "/works/OL3W", "/works/OL4W", "/works/OL5W"]
        let byTitle = ["/works/OL3W", "/works/OL2W", "/works/OL4W", "/works/OL9W", "/works/OL1W", "/works/OL5W"]
        for limit in [1, 4, 100] {
            #expect(try await keys(.newest, limit: limit) == newest)
            #expect(try await keys(.title, limit: limit) == byTitle)
        }

        // Added again, a bookmark is the newest; removed, it is gone; another member's are theirs.
        try await lib.append(
            .bookmarks(L.ada), Self.removed("/works/OL5W"), Self.added("/works/OL5W", "zebra"), Self.removed("/works/OL4W"))
        #expect(
            try await shelf.bookmarks(of: L.ada, sort: .newest, page: try PageRequest(limit: 2)).items.map(\.key) == [
                "/works/OL5W", "/works/OL9W",
            ])
        #expect(try await shelf.bookmarks(of: L.ada, sort: .newest, page: .first).total == 5)
        #expect(try await shelf.bookmarks(of: L.bob, sort: .title, page: .first).items.map(\.key) == ["/works/OL6W"])
        try await lib.rebuild()
        #expect(try await shelf.bookmarks(of: L.ada, sort: .newest, page: .first).items.first?.key == "/works/OL5W")
        let none = try await shelf.bookmarks(of: L.uuidMember(0xa9), sort: .newest, page: .first)
        #expect(none.items.isEmpty && none.total == 0)
        await lib.postgres?.close()
    }

    @Test("an entry is the work as search shows it, with covers under the base URL given", arguments: LibraryFactory.all)
    func entry(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await lib.append(
            .bookmarks(L.ada), Self.added("/works/OL1W", "Dune", book: L.dune, cover: 12_345),
            .bookmark(
                .added(
                    BookmarkAdded(
                        member: L.ada, key: "/works/OL2W", book: nil,
                        snapshot: BookmarkSnapshot(title: "Bare", authors: [], firstPublishYear: nil, coverID: nil, ratingAverage: nil)))))
        let page = try await lib.bookmarkShelf(coversURL: Self.covers).bookmarks(of: L.ada, sort: .title, page: .first)
        let bookmarkedAt = metadata().recordedAt
        #expect(
            page.items == [
                BookmarkEntry(
                    key: "/works/OL2W",
                    work: WorkResult(
                        workKey: "/works/OL2W", title: "Bare", authors: [], firstPublishYear: nil, editionCount: nil, isbns: [],
                        coverID: nil,
                        ratingAverage: nil, ratingCount: nil, readingLogCount: nil, covers: nil), book: nil, bookmarkedAt: bookmarkedAt),
                BookmarkEntry(
                    key: "/works/OL1W",
                    work: WorkResult(
                        workKey: "/works/OL1W", title: "Dune", authors: ["A. \"Q\" Author", "B/C"], firstPublishYear: 1965,
                        editionCount: nil,
                        isbns: [], coverID: 12_345, ratingAverage: 4.25, ratingCount: nil, readingLogCount: nil,
                        covers: CoverURLs.openLibrary(base: Self.covers, path: "id/12345")), book: L.dune, bookmarkedAt: bookmarkedAt),
            ])
        let elsewhere = try await lib.bookmarkShelf(coversURL: "http://127.0.0.1:9").bookmarks(of: L.ada, sort: .newest, page: .first)
        #expect(elsewhere.items.compactMap(\.work.covers?.medium) == ["http://127.0.0.1:9/b/id/12345-M.jpg"])
        await lib.postgres?.close()
    }
}
