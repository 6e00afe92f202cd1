import APIContract
import Application
import ArgumentParser
import Foundation

/// `shelfmark search`.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "search", abstract: "Search Open Library by title (or author, or any words), sorted over all results.",
        discussion: """
            Answers are cached for a day; when Open Library is unreachable a cached answer is shown, marked stale. \
            Pages as GET /api/v1/search does (--limit, --offset; no --all: Open Library's answers run to thousands). \
            With --json, prints what GET /api/v1/search answers.
            """)

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Argument(help: ArgumentHelp("Words of the title.", valueName: "title")) var title: String?
    @Option(help: ArgumentHelp("An author's name.", valueName: "name")) var author: String?
    @Option(name: [.customShort("q"), .long], help: ArgumentHelp("Any words (title, author, subject...).", valueName: "words"))
    var query: String?
    @Option(help: ArgumentHelp("\(SearchSort.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "order"))
    var sort = SearchSort.relevance.rawValue
    @Option(help: "Results per page, 1-\(PageRequest.maxLimit).") var limit = PageRequest.defaultLimit
    @Option(help: "Results to skip, at most \(SearchQuery.maxOffset).") var offset = 0

    func validate() throws {
        guard SearchSort(rawValue: sort) != nil else {
            throw usage("--sort", .notOneOf(SearchSort.allCases.map(\.rawValue)))
        }
    }

    func run() async throws {
        let request = SearchQuery(
            title: title, author: author, text: query, sort: SearchSort(rawValue: sort) ?? .relevance, limit: limit, offset: offset)
        let page = try await global.library().search.execute(request)
        if global.json { return try printJSON(Components.Schemas.SearchPage(page)) }
        if page.stale { print(say(.staleResults)) }
        guard !page.results.isEmpty else { return print(say(.nothingListed(.works))) }
        print(
            table(
                ["WORK", "TITLE", "AUTHORS", "YEAR", "RATING", "COVER"],
                page.results.map { w in
                    [
                        w.workKey, w.title, w.authors.joined(separator: ", "), w.firstPublishYear.map(String.init) ?? "",
                        w.ratingAverage.map { String(format: "%.1f (%d)", $0, w.ratingCount ?? 0) } ?? "", w.covers?.medium ?? "",
                    ]
                }, maxWidth: 60))
        print(Page(items: page.results, total: page.total, offset: page.offset, limit: page.limit).footer(walkable: false))
    }
}
