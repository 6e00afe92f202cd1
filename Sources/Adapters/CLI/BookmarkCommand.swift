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
        static let configuration = CommandConfiguration(abstract: "Bookmark an Open Library work (OL…W) or, with --book, a catalogue book.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "An Open Library work key, e.g. OL27448W.") var workKey: String?
        @Option(help: "A catalogue book's id instead.") var book: String?
        func validate() throws {
            if (workKey == nil) == (book == nil) { throw ValidationError("give a work key or --book ID") }
        }
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let list =
                    if let book {
                        try await library.bookmarks.add(book: try BookID.parse(book), by: principal)
                    } else {
                        try await library.bookmarks.add(work: workKey ?? "", by: principal)
                    }
                try printBookmarks(list, global)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your bookmarks.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "newest or title.") var sort = "newest"
        func validate() throws { if BookmarkSort(rawValue: sort) == nil { throw ValidationError("--sort must be newest or title") } }
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                try printBookmarks(try await library.bookmarks.list(sort: BookmarkSort(rawValue: sort) ?? .newest, by: principal), global)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a bookmark by its key (OL…W or book:<id>).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The bookmark's key.") var key: String
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                try await library.bookmarks.remove(key, by: principal)
                print("Removed.")
            }
        }
    }
}

private func printBookmarks(_ entries: [BookmarkEntry], _ global: GlobalOptions) throws {
    if global.json {
        return try printJSON(entries.map { ["key": $0.key, "title": $0.work.title, "authors": $0.work.authors.joined(separator: ", ")] })
    }
    guard !entries.isEmpty else { return print("No bookmarks.") }
    print(
        table(
            ["KEY", "TITLE", "AUTHORS", "YEAR", "COVER"],
            entries.map { e in
                [
                    e.key, e.work.title, e.work.authors.joined(separator: ", "), e.work.firstPublishYear.map(String.init) ?? "",
                    e.work.covers?.medium ?? "",
                ]
            }, maxWidth: 60))
}
