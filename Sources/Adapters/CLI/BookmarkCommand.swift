import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark bookmark ...`: the logged-in member's bookmarks.
struct BookmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmark", abstract: t("cli.bookmark.abstract"),
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.bookmark.add.abstract"),
            discussion: t("cli.bookmark.add.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.bookmark.add.workKey"), valueName: "work-key")) var workKey: String?
        @Option(help: ArgumentHelp(t("cli.bookmark.add.book"), valueName: "book-id")) var book: String?
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
            abstract: t("cli.bookmark.list.abstract"), discussion: t("cli.bookmark.list.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("\(BookmarkSort.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "order"))
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
            abstract: t("cli.bookmark.remove.abstract"),
            discussion: t("cli.bookmark.remove.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.bookmark.remove.key"), valueName: "key")) var key: String
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
            [
                t("cli.column.key"), t("cli.column.title"), t("cli.column.authors"), t("cli.column.year"), t("cli.column.kept"),
                t("cli.column.cover"),
            ],
            page.items.map { e in
                [
                    e.key, e.work.title, e.work.authors.joined(separator: ", "), e.work.firstPublishYear.map(String.init) ?? "",
                    TableDates.day(e.bookmarkedAt), e.work.covers?.medium ?? "",
                ]
            }, maxWidth: 60))
    print(page.footer)
}
