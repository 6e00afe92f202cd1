import Application
import Domain
import Foundation
import LogChain
import PostgresNIO
import Testing

@testable import PostgresStore

/// `audit verify` on PostgreSQL over the accounts and app-key read models and the tables no event
/// feeds: with members, sessions, keys, failed logins, cached searches and countries stored it
/// passes; an altered accounts, sessions or app-keys row is named by the replay.
@Suite(
    "PostgreSQL audit verify: accounts, app keys and the small stores",
    .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresAccountsVerifyTests {
    typealias A = AccountsContractTests

    /// A library with three accounts (one closed), sessions, a key, and a row in each small store.
    static func library() async throws -> LibraryUnderTest {
        let lib = LibraryUnderTest(postgres: try await PostgresTestServer.library())
        try await A.threeAccounts(lib)
        try await lib.append(.user(A.ada), A.sessionOpened(A.ada, 1))
        try await lib.append(.user(A.bob), A.sessionOpened(A.bob, 2))
        try await AppKeyRegisterContractTests.issue(AppKeyRegisterContractTests.adasKey, to: A.ada, lib)
        try await lib.append(.user(A.cy), .user(.closed(UserClosed(user: A.cy))))
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        try await lib.loginFailures().record(email: A.email("ada@example.org"), client: "c1", at: at, forgetBefore: .distantPast)
        try await lib.searchCache(maxEntries: 10).store("title:dune", SearchCacheContractTests.page("Dune"), at: at)
        try await lib.countryList.save(CountryListContractTests.list)
        return lib
    }

    @Test("verify passes with every table filled, leaving out those no event feeds")
    func intact() async throws {
        let lib = try await Self.library()
        let checks = try await lib.postgres!.verify(anchors: .none) { _, _ in }
        let allPassed = checks.allSatisfy(\.passed)
        #expect(allPassed, Comment(rawValue: String(describing: checks)))
        await lib.postgres?.close()
    }

    @Test(
        "an altered accounts, sessions or app-keys row fails the replay",
        arguments: [
            "UPDATE accounts SET display_name = 'Mallory' WHERE id = '00000000-0000-0000-0000-0000000000a1'",
            "DELETE FROM sessions WHERE token_digest = 'digest-2'",
            "UPDATE app_keys SET revoked = TRUE",
            "INSERT INTO accounts (id, email, display_name, country, role, registered_at) VALUES ('x', 'x@example.org', 'X', 'GB', 'librarian', '')",
        ])
    func altered(change: String) async throws {
        let lib = try await Self.library()
        try await PostgresStoreTests.execute(lib.postgres!, change)
        let failed = try await PostgresVerifyTests.failed(lib.postgres!)
        #expect(failed.map(\.kind) == [.replay], Comment(rawValue: String(describing: failed)))
        await lib.postgres?.close()
    }
}
