import Foundation
import Logging
import PostgresNIO
import PostgresStore
import Security

/// The PostgreSQL server the tests use, from `SHELFMARK_TEST_POSTGRES_URL` (`.ci/run` starts a
/// throwaway cluster and sets it). Each store under test gets a database of its own, made from it.
/// Without the variable the contract suites run without their PostgreSQL cases, and the suite
/// below says so in the test report as a skipped test: never a silent pass.
public enum PostgresTestServer {
    public static let variable = "SHELFMARK_TEST_POSTGRES_URL"
    public static let url = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    public static let skipped = "\(variable) is not set, so no PostgreSQL case ran (.ci/run starts a throwaway PostgreSQL and sets it)"

    /// The server's URL; throws when none is given.
    public static func required() throws -> String {
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
    public static func freshDatabase() async throws -> String {
        let url = try required()
        guard let admin = await admin.value else { throw PostgresAddressProblem.notAURL }
        let name = "shelfmark_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        var parts = URLComponents(string: url)!
        parts.path = "/" + name
        return parts.string!
    }

    /// A library opened on a new database, sealing with the tests' cipher (the application's own).
    public static func library(keyFile: String? = nil) async throws -> PostgresLibrary {
        try await PostgresLibrary.open(
            PostgresAddress(try await freshDatabase()), keyFile: keyFile, cipher: SwiftCryptoPersonalCipher(), maximumConnections: 4)
    }
}
