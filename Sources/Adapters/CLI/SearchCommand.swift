import Application
import ArgumentParser
import Foundation

/// `shelfmark search`.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search Open Library by title (or author, or any words), sorted over all results.",
        discussion: "Answers are cached for a day; when Open Library is unreachable a cached answer is shown, marked stale.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Words of the title.") var title: String?
    @Option(help: "An author's name.") var author: String?
    @Option(name: [.customShort("q"), .long], help: "Any words (title, author, subject...).") var query: String?
    @Option(help: "relevance, title, rating, hits, editions, new or old.") var sort = "relevance"
    @Option(help: "Results per page (1-100).") var limit = 20
    @Option(help: "Results to skip.") var offset = 0

    func validate() throws {
        guard SearchSort(rawValue: sort) != nil else {
            throw ValidationError("--sort must be one of: \(SearchSort.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let request = SearchQuery(
                title: title, author: author, text: query, sort: SearchSort(rawValue: sort) ?? .relevance, limit: limit, offset: offset)
            let page = try await global.library().search.execute(request)
            if global.json { return try printJSON(SearchJSON(page)) }
            if page.stale { print("(Open Library is unreachable: these results come from the cache)") }
            guard !page.results.isEmpty else { return print("Nothing found.") }
            print(
                table(
                    ["WORK", "TITLE", "AUTHORS", "YEAR", "RATING", "COVER"],
                    page.results.map { w in
                        [
                            w.workKey, w.title, w.authors.joined(separator: ", "), w.firstPublishYear.map(String.init) ?? "",
                            w.ratingAverage.map { String(format: "%.1f (%d)", $0, w.ratingCount ?? 0) } ?? "", w.covers?.medium ?? "",
                        ]
                    }, maxWidth: 60))
            var footer = "\(page.offset + 1)-\(page.offset + page.results.count) of \(page.total)"
            if let next = page.nextOffset { footer += " (next page: --offset \(next))" }
            print(footer)
        }
    }
}

private struct SearchJSON: Encodable {
    let results: [WorkResult]
    let total: Int, offset: Int, limit: Int
    let nextOffset: Int?
    let stale: Bool
    init(_ page: SearchPage) {
        results = page.results
        total = page.total
        offset = page.offset
        limit = page.limit
        nextOffset = page.nextOffset
        stale = page.stale
    }
}
