import Domain
import Foundation

/// How long search answers are fresh.
public struct SearchSettings: Sendable {
    public var freshFor: TimeInterval = 24 * 3600
    public init() {}
}

/// Searches Open Library through the cache: a fresh cached answer is served as is; otherwise the
/// source is asked, and when it cannot be reached a cached answer of any age is served, marked stale.
public struct SearchBooks: Sendable {
    let search: any BookSearch
    let cache: any SearchCache
    let clock: any WallClock
    let settings: SearchSettings

    public init(search: any BookSearch, cache: any SearchCache, clock: any WallClock, settings: SearchSettings = SearchSettings()) {
        self.search = search
        self.cache = cache
        self.clock = clock
        self.settings = settings
    }

    /// One page of at most `query.limit` works, whatever the source sends. Fields in `q`
    /// (`author:`, `title:`, `isbn:`, `publisher:`) are read as the catalogue reads them and passed
    /// on in one spelling (ISBNs as ISBN-13), which Open Library's `q` understands; its other
    /// fields (`subject:`) go as they were typed.
    public func execute(_ query: SearchQuery) async throws -> SearchPage {
        try query.validate()
        var query = query
        if let text = query.text {
            do { query.text = try SearchTerms(parsing: text, otherFields: .keptAsWords).canonical } catch {
                throw InvalidInput("q", error.fieldProblem)
            }
        }
        let key = Self.cacheKey(query)
        let cached = try await cache.lookup(key)
        let now = clock.now()
        if let cached, now.timeIntervalSince(cached.storedAt) < settings.freshFor { return cached.page.limited(to: query.limit) }
        do {
            let page = try await search.search(query).limited(to: query.limit)
            try await cache.store(key, page, at: now)
            return page
        } catch let error as SearchUnavailable {
            guard var page = cached?.page.limited(to: query.limit) else { throw error }
            page.stale = true
            return page
        }
    }

    /// Normalised query, paging and sort: the same search typed differently shares one entry.
    static func cacheKey(_ q: SearchQuery) -> String {
        func norm(_ s: String?) -> String { (s ?? "").lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return ["t=" + norm(q.title), "a=" + norm(q.author), "q=" + norm(q.text), "s=" + q.sort.rawValue, "l=\(q.limit)", "o=\(q.offset)"]
            .joined(separator: "&")
    }
}

extension SearchPage {
    /// This page with at most `limit` results: a source may send more than it was asked for.
    func limited(to limit: Int) -> SearchPage {
        guard results.count > limit else { return self }
        return SearchPage(results: Array(results.prefix(limit)), total: total, offset: offset, limit: limit, stale: stale)
    }
}
