import Application
import Foundation
import PostgresStore
// Every suite of this target reaches the shared PostgreSQL test server through this one import.
@_exported import PostgresTestSupport
import Testing

/// Says in the test report whether the PostgreSQL cases ran: skipped, with the reason, when no
/// server is given; when one is, it must answer.
@Suite("PostgreSQL server for the contract suites")
struct PostgresTestServerTests {
    @Test(
        "the contract suites run their PostgreSQL cases against SHELFMARK_TEST_POSTGRES_URL",
        .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
    func serverAnswers() async throws {
        let library = try await PostgresTestServer.library()
        #expect(try await library.headPosition() == 0)
        await library.close()
    }
}
