import Application
import Foundation
import InMemory
import SQLiteStore
import Synchronization
import Testing

/// A book search that answers from a script, or fails when told to.
final class ScriptedSearch: BookSearch, Sendable {
    let down = Mutex(false)
    let calls = Mutex(0)
    func search(_ query: SearchQuery) async throws -> SearchPage {
        calls.withLock { $0 += 1 }
        if down.withLock({ $0 }) { throw SearchUnavailable(.unreachable, detail: "connection refused") }
        let work = WorkResult(
            workKey: "OL1W", title: query.title ?? "?", authors: ["A"], firstPublishYear: 2000, editionCount: 1, isbns: [], coverID: nil,
            ratingAverage: nil, ratingCount: nil, readingLogCount: nil, covers: nil)
        return SearchPage(results: [work], total: 1, offset: query.offset, limit: query.limit)
    }
}

@Suite("Searching through the cache")
struct SearchBooksTests {
    let t: TestLibrary
    let source = ScriptedSearch()
    let search: SearchBooks
    init() throws {
        t = try TestLibrary()
        search = SearchBooks(search: source, cache: t.database.searchCache(maxEntries: 3), clock: t.clock)
    }

    @Test func aFreshAnswerIsServedFromTheCacheWhateverTheSpelling() async throws {
        _ = try await search.execute(SearchQuery(title: "Dune"))
        _ = try await search.execute(SearchQuery(title: "  dune "))
        #expect(source.calls.withLock { $0 } == 1)
        _ = try await search.execute(SearchQuery(title: "Dune", sort: .rating))
        #expect(source.calls.withLock { $0 } == 2)
    }

    @Test func anExpiredAnswerIsAskedAgain() async throws {
        _ = try await search.execute(SearchQuery(title: "Dune"))
        t.clock.advance(by: 24 * 3600)
        _ = try await search.execute(SearchQuery(title: "Dune"))
        #expect(source.calls.withLock { $0 } == 2)
    }

    @Test func whenTheSourceIsDownACachedAnswerIsServedStale() async throws {
        let fresh = try await search.execute(SearchQuery(title: "Dune"))
        #expect(!fresh.stale)
        t.clock.advance(by: 30 * 24 * 3600)
        source.down.withLock { $0 = true }
        let stale = try await search.execute(SearchQuery(title: "Dune"))
        #expect(stale.stale && stale.results == fresh.results)
        await #expect(throws: SearchUnavailable.self) { try await search.execute(SearchQuery(title: "Never asked")) }
    }

    @Test func theCacheIsBounded() async throws {
        for title in ["A", "B", "C", "D"] {
            _ = try await search.execute(SearchQuery(title: title))
            t.clock.advance(by: 1)
        }
        t.clock.advance(by: 2 * 24 * 3600)
        source.down.withLock { $0 = true }
        await #expect(throws: SearchUnavailable.self) { try await search.execute(SearchQuery(title: "A")) }
        #expect(try await search.execute(SearchQuery(title: "D")).stale)
    }

    @Test func badQueriesNeverReachTheSource() async throws {
        await #expect(throws: InvalidInput.self) { try await search.execute(SearchQuery()) }
        await #expect(throws: InvalidInput.self) { try await search.execute(SearchQuery(title: "x", limit: 0)) }
        #expect(source.calls.withLock { $0 } == 0)
    }
}
