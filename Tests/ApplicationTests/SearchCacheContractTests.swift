import Application
import Foundation
import PostgresStore
import Testing

extension LibraryUnderTest {
    /// The search cache of this adapter, keeping at most `maxEntries` answers.
    func searchCache(maxEntries: Int) -> any SearchCache {
        sqlite?.searchCache(maxEntries: maxEntries) ?? postgres!.searchCache(maxEntries: maxEntries)
    }
}

/// The search cache's contract (`SearchCache`, outside the log), on every store adapter: an answer
/// reads back fresh with when it was stored, a key stored again is replaced, and only the most
/// recently stored answers are kept.
@Suite("Search cache (contract)")
struct SearchCacheContractTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func page(_ title: String, stale: Bool = false) -> SearchPage {
        let work = WorkResult(
            workKey: "OL1W", title: title, authors: ["Frank Herbert"], firstPublishYear: 1965, editionCount: 3, isbns: ["9780441013593"],
            coverID: 42, ratingAverage: 4.5, ratingCount: 10, readingLogCount: nil, covers: nil)
        return SearchPage(results: [work], total: 7, offset: 0, limit: 1, stale: stale)
    }

    @Test("an answer reads back fresh, with when it was stored; a key never stored reads nothing", arguments: LibraryFactory.all)
    func roundTrip(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let cache = lib.searchCache(maxEntries: 10)
        #expect(try await cache.lookup("title:dune") == nil)
        try await cache.store("title:dune", Self.page("Dune", stale: true), at: Self.at(1))
        let found = try #require(try await cache.lookup("title:dune"))
        #expect(found.page == Self.page("Dune") && found.storedAt == Self.at(1))
        #expect(try await cache.lookup("title:Dune") == nil, "keys compare exactly")

        try await cache.store("title:dune", Self.page("Dune Messiah"), at: Self.at(2))
        let again = try #require(try await cache.lookup("title:dune"))
        #expect(again.page == Self.page("Dune Messiah") && again.storedAt == Self.at(2))
        await lib.postgres?.close()
    }

    @Test("at most maxEntries answers are kept, the most recently stored", arguments: LibraryFactory.all)
    func bounded(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let cache = lib.searchCache(maxEntries: 3)
        for (n, key) in ["a", "b", "c", "d"].enumerated() { try await cache.store(key, Self.page(key), at: Self.at(Double(n))) }
        #expect(try await cache.lookup("a") == nil)
        for key in ["b", "c", "d"] { #expect(try await cache.lookup(key) != nil) }
        try await cache.store("b", Self.page("b"), at: Self.at(10))  // stored again: the newest now
        try await cache.store("e", Self.page("e"), at: Self.at(11))
        #expect(try await cache.lookup("c") == nil)
        for key in ["b", "d", "e"] { #expect(try await cache.lookup(key) != nil) }
        await lib.postgres?.close()
    }
}

/// Two servers on one PostgreSQL database storing answers at once: no store fails, and the
/// cache keeps exactly the most recently stored answers.
@Suite(
    "PostgreSQL: search cache shared by several servers",
    .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresSearchCacheRaceTests {
    typealias S = SearchCacheContractTests

    @Test("two servers storing at once keep exactly the maxEntries newest answers")
    func twoServers() async throws {
        let url = try await PostgresTestServer.freshDatabase()
        let a = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 8)
        let b = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 8)
        let caches = [a.searchCache(maxEntries: 5), b.searchCache(maxEntries: 5)]
        // Each key stored twice, once through each server, started newest last: most stores at once
        // evict the same oldest answers, and each is among the newest when it runs.
        let stores = (0..<40).flatMap { [($0, 0), ($0, 1)] }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, server) in stores {
                group.addTask { try await caches[server].store("k\(n)", S.page("k\(n)"), at: S.at(Double(n))) }
            }
            try await group.waitForAll()
        }
        for n in 0..<40 {
            let found = try await caches[n % 2].lookup("k\(n)")
            #expect((found != nil) == (n >= 35), "k\(n)")
        }
        await a.close()
        await b.close()
    }
}
