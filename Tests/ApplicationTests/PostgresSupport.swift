import Application
import Foundation
import Logging
import PostgresNIO
import PostgresStore
import Testing

/// The PostgreSQL server the tests use, from `SHELFMARK_TEST_POSTGRES_URL` (`.ci/run` starts a
/// throwaway cluster and sets it). Each store under test gets a database of its own, made from it.
/// Without the variable the contract suites run without their PostgreSQL cases, and the suite
/// below says so in the test report as a skipped test: never a silent pass.
enum PostgresTestServer {
    static let variable = "SHELFMARK_TEST_POSTGRES_URL"
    static let url = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    static let skipped = "\(variable) is not set, so no PostgreSQL case ran (.ci/run starts a throwaway PostgreSQL and sets it)"

    /// The server's URL; throws when none is given.
    static func required() throws -> String {
        guard let url else { throw PostgresAddressProblem.noHost }
        return url
    }

    /// The server's administration client, run for the whole test process (from the moment its task runs it).
    private static let admin = Task<PostgresClient?, Never> {
        guard let url, let address = try? PostgresAddress(url) else { return nil }
        let client = PostgresClient(configuration: address.configuration, backgroundLogger: Logger(label: "tests.postgres"))
        let (begun, begin) = AsyncStream<Void>.makeStream()
        Task {
            begin.finish()
            await client.run()
        }
        for await _ in begun {}
        return client
    }

    /// A new, empty database on the server; its URL.
    static func freshDatabase() async throws -> String {
        let url = try required()
        guard let admin = await admin.value else { throw PostgresAddressProblem.notAURL }
        let name = "shelfmark_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        var parts = URLComponents(string: url)!
        parts.path = "/" + name
        return parts.string!
    }

    /// A library opened on a new database, sealing with the tests' cipher.
    static func library(keyFile: String? = nil) async throws -> PostgresLibrary {
        try await PostgresLibrary.open(
            PostgresAddress(try await freshDatabase()), keyFile: keyFile, cipher: personalCipher, maximumConnections: 4)
    }
}

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
