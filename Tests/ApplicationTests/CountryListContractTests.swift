import Application
import Foundation
import PostgresStore
import Testing

extension LibraryUnderTest {
    /// The country list store of this adapter.
    var countryList: any CountryListStore { sqlite?.countryList ?? postgres!.countryList }
}

/// The country list store's contract (`CountryListStore`, outside the log), on every store adapter.
@Suite("Country list store (contract)")
struct CountryListContractTests {
    static let list = [
        Country(code: "gb", name: "United Kingdom", frenchName: "Royaume-Uni"), Country(code: "AX", name: "\u{C5}land Islands"),
        Country(code: "FR", name: "France", frenchName: "France"), Country(code: "ZA", name: "South Africa", frenchName: "Afrique du Sud"),
    ]

    @Test("nothing stored reads nil; a saved list reads back by English name, byte by byte", arguments: LibraryFactory.all)
    func roundTrip(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let store = lib.countryList
        #expect(try await store.load() == nil)
        try await store.save(Self.list)
        // "Å" sorts after every ASCII letter, as SQLite compares.
        #expect(try await store.load() == [Self.list[2], Self.list[3], Self.list[0], Self.list[1]])
        #expect(try await store.load()?.last?.frenchName == nil)
        await lib.postgres?.close()
    }

    @Test(
        "a save replaces the whole list; a code given twice keeps its last entry; an empty save empties it", arguments: LibraryFactory.all)
    func replace(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let store = lib.countryList
        try await store.save(Self.list)
        let next = [
            Country(code: "DE", name: "Germany"), Country(code: "FR", name: "France (old)"),
            Country(code: "FR", name: "France", frenchName: "La France"),
        ]
        try await store.save(next)
        #expect(try await store.load() == [Country(code: "FR", name: "France", frenchName: "La France"), next[0]])
        try await store.save([])
        #expect(try await store.load() == nil)
        await lib.postgres?.close()
    }
}

/// Two servers on one PostgreSQL database saving the list at once leave one list whole.
@Suite(
    "PostgreSQL: country list saved by several servers",
    .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresCountryListRaceTests {
    @Test("two servers saving different lists at once leave one of them, never a mix")
    func twoServers() async throws {
        let url = try await PostgresTestServer.freshDatabase()
        let a = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 8)
        let b = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 8)
        let lists = [
            (0..<50).map { Country(code: String(format: "A%02d", $0), name: "Alpha \($0)") },
            (0..<50).map { Country(code: String(format: "B%02d", $0), name: "Beta \($0)") },
        ]
        let sorted = lists.map { $0.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
        for _ in 0..<5 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<6 { group.addTask { try await [a, b][n % 2].countryList.save(lists[n % 2]) } }
                try await group.waitForAll()
            }
            let loaded = try await a.countryList.load()
            #expect(loaded == sorted[0] || loaded == sorted[1])
        }
        await a.close()
        await b.close()
    }
}
