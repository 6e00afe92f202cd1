import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark bookmark ...`: the logged-in member's bookmarks.
struct BookmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmark", abstract: "Keep Open Library works and catalogue books for later (needs `shelfmark login`).",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Bookmark an Open Library work (OL…W) or, with --book, a catalogue book.",
            discussion: "With --json, prints what PUT /api/v1/me/bookmarks/{key} (or /me/bookmarks/books/{id}) answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("An Open Library work key, e.g. OL27448W.", valueName: "work-key")) var workKey: String?
        @Option(help: ArgumentHelp("A catalogue book's id instead.", valueName: "book-id")) var book: String?
        func validate() throws {
            if (workKey == nil) == (book == nil) { throw usage(.exactlyOneOf(["<work-key>", "--book"])) }
        }
        func run() async throws {
            let (library, principal) = try await global.acting()
            let page =
                if let book {
                    try await library.bookmarks.add(book: try BookID.parse(book), by: principal)
                } else {
                    try await library.bookmarks.add(work: workKey ?? "", by: principal)
                }
            try printBookmarks(page, global)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "List your bookmarks.", discussion: "With --json, prints what GET /api/v1/me/bookmarks answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("\(BookmarkSort.allCases.map(\.rawValue).joined(separator: " or ")).", valueName: "order"))
        var sort = BookmarkSort.newest.rawValue
        @OptionGroup var paging: PagingOptions
        func validate() throws {
            if BookmarkSort(rawValue: sort) == nil {
                throw usage("--sort", .notOneOf(BookmarkSort.allCases.map(\.rawValue)))
            }
        }
        func run() async throws {
            let (library, principal) = try await global.acting()
            let sort = BookmarkSort(rawValue: sort) ?? .newest
            try printBookmarks(try await paging.fetch { try await library.bookmarks.list(sort: sort, page: $0, by: principal) }, global)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Remove a bookmark by its key (OL…W or book:<id>).",
            discussion: "With --json, prints nothing, as DELETE /api/v1/me/bookmarks/{key} answers 204.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The bookmark's key.", valueName: "key")) var key: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try await library.bookmarks.remove(key, by: principal)
            if !global.json { print(say(.bookmarkRemoved)) }
        }
    }
}

private func printBookmarks(_ page: Page<BookmarkEntry>, _ global: GlobalOptions) throws {
    if global.json { return try printJSON(Components.Schemas.BookmarkPage(page)) }
    guard !page.items.isEmpty else { return print(page.total == 0 ? say(.nothingListed(.bookmarks)) : page.footer) }
    print(
        table(
            ["KEY", "TITLE", "AUTHORS", "YEAR", "KEPT", "COVER"],
            page.items.map { e in
                [
                    e.key, e.work.title, e.work.authors.joined(separator: ", "), e.work.firstPublishYear.map(String.init) ?? "",
                    TableDates.day(e.bookmarkedAt), e.work.covers?.medium ?? "",
                ]
            }, maxWidth: 60))
    print(page.footer)
}
