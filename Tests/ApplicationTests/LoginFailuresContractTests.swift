import Application
import Domain
import Foundation
import PostgresStore
import Testing

extension LibraryUnderTest {
    /// The failed-logins store of this adapter, keeping at most `maxRows`.
    func loginFailures(maxRows: Int = 100_000) -> any LoginFailures {
        sqlite?.loginFailures(maxRows: maxRows) ?? postgres!.loginFailures(maxRows: maxRows)
    }
}

/// The failed-logins store's contract (`LoginFailures`, outside the log), on every store adapter:
/// failures are counted per address and client, oldest first, pruned by age and bounded in rows.
@Suite("Login failures (contract)")
struct LoginFailuresContractTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let ada = AccountsContractTests.email("ada@example.org")
    static let bob = AccountsContractTests.email("bob@example.org")
    static let long = Date(timeIntervalSince1970: 0)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test("failures are counted per address and client, since a moment (included), oldest first", arguments: LibraryFactory.all)
    func perKey(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let failures = lib.loginFailures()
        for seconds in [3.0, 1, 2] {
            try await failures.record(email: Self.ada, client: "c1", at: Self.at(seconds), forgetBefore: Self.long)
        }
        try await failures.record(email: Self.ada, client: "c2", at: Self.at(1), forgetBefore: Self.long)
        try await failures.record(email: Self.bob, client: "c1", at: Self.at(1), forgetBefore: Self.long)
        #expect(try await failures.failures(email: Self.ada, client: "c1", since: Self.t0) == [1, 2, 3].map(Self.at))
        #expect(try await failures.failures(email: Self.ada, client: "c1", since: Self.at(2)) == [2, 3].map(Self.at))
        #expect(try await failures.failures(email: Self.ada, client: "c2", since: Self.t0) == [Self.at(1)])
        #expect(try await failures.failures(email: Self.bob, client: "c1", since: Self.t0) == [Self.at(1)])
        #expect(try await failures.failures(email: Self.bob, client: "c2", since: Self.t0).isEmpty)
        await lib.postgres?.close()
    }

    @Test("a login clears one client's failures; a new address takes them all; a closing forgets them", arguments: LibraryFactory.all)
    func clearMoveForget(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let failures = lib.loginFailures()
        for client in ["c1", "c2"] {
            try await failures.record(email: Self.ada, client: client, at: Self.at(1), forgetBefore: Self.long)
            try await failures.record(email: Self.bob, client: client, at: Self.at(2), forgetBefore: Self.long)
        }
        try await failures.clear(email: Self.ada, client: "c1")
        #expect(try await failures.failures(email: Self.ada, client: "c1", since: Self.t0).isEmpty)
        #expect(try await failures.failures(email: Self.ada, client: "c2", since: Self.t0) == [Self.at(1)])
        #expect(try await failures.failures(email: Self.bob, client: "c1", since: Self.t0) == [Self.at(2)])

        let new = AccountsContractTests.email("ada.new@example.org")
        try await failures.move(from: Self.ada, to: new)
        #expect(try await failures.failures(email: Self.ada, client: "c2", since: Self.t0).isEmpty)
        #expect(try await failures.failures(email: new, client: "c2", since: Self.t0) == [Self.at(1)])

        try await failures.forget(email: Self.bob)
        for client in ["c1", "c2"] { #expect(try await failures.failures(email: Self.bob, client: client, since: Self.t0).isEmpty) }
        #expect(try await failures.failures(email: new, client: "c2", since: Self.t0) == [Self.at(1)])
        await lib.postgres?.close()
    }

    @Test("recording a failure forgets those older than asked (not one at the moment itself)", arguments: LibraryFactory.all)
    func pruneByAge(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let failures = lib.loginFailures()
        try await failures.record(email: Self.ada, client: "c1", at: Self.at(0), forgetBefore: Self.long)
        try await failures.record(email: Self.bob, client: "c1", at: Self.at(10), forgetBefore: Self.long)
        try await failures.record(email: Self.ada, client: "c1", at: Self.at(100), forgetBefore: Self.at(10))
        #expect(try await failures.failures(email: Self.ada, client: "c1", since: Self.long) == [Self.at(100)])
        #expect(try await failures.failures(email: Self.bob, client: "c1", since: Self.long) == [Self.at(10)])
        await lib.postgres?.close()
    }

    @Test("at most maxRows failures are kept, the last recorded", arguments: LibraryFactory.all)
    func bounded(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let failures = lib.loginFailures(maxRows: 3)
        // Recorded out of time order: the bound keeps the last recorded, whatever their times.
        for seconds in [5.0, 1, 4, 2, 3] {
            try await failures.record(email: Self.ada, client: "c1", at: Self.at(seconds), forgetBefore: Self.long)
        }
        #expect(try await failures.failures(email: Self.ada, client: "c1", since: Self.long) == [2, 3, 4].map(Self.at))
        await lib.postgres?.close()
    }
}

/// Two servers on one PostgreSQL database counting failed logins at once: none is lost, neither
/// waits on the other's pruning for ever, and the bound holds once they are done.
@Suite(
    "PostgreSQL: login failures from several servers",
    .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresLoginFailuresRaceTests {
    typealias L = LoginFailuresContractTests

    /// Records `count` failures at once, alternately through each store, each at its own second.
    static func race(_ stores: [any LoginFailures], _ count: Int, from first: Int = 0) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in first..<(first + count) {
                group.addTask {
                    try await stores[n % 2].record(email: L.ada, client: "c1", at: L.at(Double(n)), forgetBefore: L.long)
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("two servers recording at once lose no failure, and keep at most maxRows")
    func twoServers() async throws {
        let url = try await PostgresTestServer.freshDatabase()
        let a = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 8)
        let b = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 8)
        try await Self.race([a.loginFailures(), b.loginFailures()], 40)
        for server in [a, b] {
            let seen = try await server.loginFailures().failures(email: L.ada, client: "c1", since: L.long)
            #expect(seen == (0..<40).map { L.at(Double($0)) }, "every failure counted, on both servers")
        }

        try await Self.race([a.loginFailures(maxRows: 10), b.loginFailures(maxRows: 10)], 40, from: 40)
        try await a.loginFailures(maxRows: 10).record(email: L.ada, client: "c1", at: L.at(1_000), forgetBefore: L.long)
        let kept = try await b.loginFailures().failures(email: L.ada, client: "c1", since: L.long)
        #expect(kept.count == 10 && kept.last == L.at(1_000) && kept.allSatisfy { $0 >= L.at(40) })
        await a.close()
        await b.close()
    }
}
