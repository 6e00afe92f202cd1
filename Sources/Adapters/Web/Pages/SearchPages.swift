import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// Open Library's books, searched by title (the search app's home page), with bookmarks.
struct SearchPages: Sendable {
    let site: Site
    static let pageSize = 20
    /// The sorts offered, with their labels in the reader's language.
    static var sorts: [(SearchSort, String)] {
        [
            (.relevance, t("web.search.sort.relevance")), (.title, t("web.search.sort.title")), (.rating, t("web.search.sort.rating")),
            (.hits, t("web.search.sort.hits")),
        ]
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/search") { request, _ in try await search(request) }
    }

    func search(_ request: Request) async throws -> Response {
        let parameters = Form.query(of: request)
        let text = parameters["q"] ?? ""
        let sort = parameters["sort"].flatMap(SearchSort.init(rawValue:)) ?? .relevance
        let offset = min(parameters.offset, SearchQuery.maxOffset)
        var view = SearchView(
            query: text, sorts: Self.sorts.map { SortOption(value: $0.0.rawValue, label: $0.1, selected: $0.0 == sort) },
            loggedIn: site.visit.account != nil)
        if !text.isEmpty {
            do {
                let page = try await site.library.search.execute(SearchQuery(title: text, sort: sort, limit: Self.pageSize, offset: offset))
                let marked = try await bookmarkedKeys()
                view.results = page.results.map { ResultCell($0, bookmarked: marked.contains($0.workKey)) }
                view.total = max(0, page.total)
                view.count = t("web.search.found", count: view.total, number(view.total))
                view.stale = page.stale
                view.searched = true
                view.noResults = page.results.isEmpty
                view.next = page.nextOffset.map { Self.link(text, sort, offset: $0) }
                view.range = page.results.isEmpty ? nil : "\(number(offset + 1))–\(number(offset + page.results.count))"
            } catch is SearchUnavailable {
                view.unavailable = Words.say(.upstreamUnavailable(.openLibrary))
            } catch let error as InvalidInput {
                // The words typed in the field `q` are Open Library's title: each refusal is linked to that field.
                view.feedback = Feedback(values: ["q": text])
                for problem in error.errors { view.feedback.add(problem.field == "title" ? "q" : problem.field, Words.say(problem)) }
            }
        }
        return site.pages.render(
            "search", view, title: text.isEmpty ? t("web.search.heading") : t("web.search.titleWithWords", text),
            status: view.feedback.hasErrors ? .badRequest : .ok)
    }

    private func bookmarkedKeys() async throws -> Set<String> {
        guard site.visit.account != nil else { return [] }
        return Set(try await site.library.bookmarks.list(page: try PageRequest(limit: 100), by: site.visit.principal).items.map(\.key))
    }

    static func link(_ text: String, _ sort: SearchSort, offset: Int) -> String {
        var components = URLComponents()
        components.path = "/search"
        components.queryItems =
            [URLQueryItem(name: "q", value: text), URLQueryItem(name: "sort", value: sort.rawValue)]
            + (offset > 0 ? [URLQueryItem(name: "offset", value: String(offset))] : [])
        return components.string ?? "/search"
    }
}

struct SearchView: Sendable {
    let query: String
    let sorts: [SortOption]
    let loggedIn: Bool
    var results: [ResultCell] = []
    var total = 0
    /// "12 books found".
    var count = ""
    var stale = false
    var searched = false
    var next: String?
    var range: String?
    var unavailable: String?
    var feedback = Feedback()
    var noResults = false
}

/// One work found on Open Library, as a search result or a bookmark shows it.
struct ResultCell: Sendable {
    let key: String
    let title: String
    let authors: String
    let year: String?
    let cover: String?
    let rating: String?
    let readers: String?
    let coverAlt: String
    let bookmarked: Bool
    /// The catalogue book a bookmark is of, if any.
    var book: String?
    var bookmarkedOn: String?

    init(_ work: WorkResult, bookmarked: Bool) {
        key = work.workKey
        title = work.title
        authors = work.authors.joined(separator: ", ")
        year = work.firstPublishYear.map(String.init)
        cover = Covers.safe(work.covers?.medium)
        // Open Library's numbers are shown only when they make sense (an average out of 5, counts from 1).
        let count = work.ratingCount.flatMap { $0 > 0 ? $0 : nil }
        rating = work.ratingAverage.flatMap { (0...5).contains($0) ? $0 : nil }.map { average in
            let stars = average.formatted(.number.precision(.fractionLength(1)).locale(Reader.language.locale))
            return count.map { t("web.search.ratingCount", count: $0, stars, number($0)) } ?? t("web.search.rating", stars)
        }
        readers = work.readingLogCount.flatMap { $0 > 0 ? $0 : nil }.map { t("web.search.readers", count: $0, number($0)) }
        coverAlt = Covers.alt(work.title, present: cover != nil)
        self.bookmarked = bookmarked
    }
}
