import APIContract
import Application
import ArgumentParser
import Foundation
import Wording

/// `shelfmark search`.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "search", abstract: t("cli.search.abstract"),
        discussion: t("cli.search.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Argument(help: ArgumentHelp(t("cli.search.title"), valueName: "title")) var title: String?
    @Option(help: ArgumentHelp(t("cli.search.author"), valueName: "name")) var author: String?
    @Option(name: [.customShort("q"), .long], help: ArgumentHelp(t("cli.search.query"), valueName: "words"))
    var query: String?
    @Option(help: ArgumentHelp("\(SearchSort.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "order"))
    var sort = SearchSort.relevance.rawValue
    @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.search.limit", "\(PageRequest.maxLimit)"))) var limit = PageRequest
        .defaultLimit
    @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.search.offset", "\(SearchQuery.maxOffset)"))) var offset = 0

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
                [
                    t("cli.column.work"), t("cli.column.title"), t("cli.column.authors"), t("cli.column.year"), t("cli.column.rating"),
                    t("cli.column.cover"),
                ],
                page.results.map { w in
                    [
                        w.workKey, w.title, w.authors.joined(separator: ", "), w.firstPublishYear.map(String.init) ?? "",
                        w.ratingAverage.map { rating($0, count: w.ratingCount ?? 0) } ?? "", w.covers?.medium ?? "",
                    ]
                }, maxWidth: 60))
        print(
            Page(items: page.results, total: page.total, offset: page.offset, limit: page.limit)
                .footer(walkable: false, nextOffset: .some(page.nextOffset)))
    }
}

/// An average rating and how many rated, as the run's language writes them (`4.2 (17)`, `4,2 (17)`).
private func rating(_ average: Double, count: Int) -> String {
    average.formatted(.number.precision(.fractionLength(1)).locale(Speaking.language.locale)) + " (\(number(count)))"
}
