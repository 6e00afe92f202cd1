import Application
import Composition
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Logging
import SQLiteStore
import Testing

/// A Prolific app's view of the server: requests under its key, and the library itself (open on
/// the same file) for what a test does beside the app: revoking, demoting, reading the log.
struct ProlificFixture: Sendable {
    let client: any TestClientProtocol
    let key: String
    let librarian: UserID
    let library: Library
    let clock: ManualClock

    /// Sends `body` under the key (`path` after `/{key}/`) with its content type.
    func send(
        _ method: HTTPRequest.Method, _ path: String, body: String? = nil, contentType: String? = nil, key: String? = nil,
        language: String? = nil
    ) async throws -> TestResponse {
        try await sendBytes(method, path, body: body.map { Array($0.utf8) }, contentType: contentType, key: key, language: language)
    }

    func sendBytes(
        _ method: HTTPRequest.Method, _ path: String, body: [UInt8]?, contentType: String? = nil, key: String? = nil,
        language: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(
            uri: "/\(key ?? self.key)/\(path)", method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
    }

    func json(_ method: HTTPRequest.Method, _ path: String, _ body: String) async throws -> TestResponse {
        try await send(method, path, body: body, contentType: "application/json")
    }

    func form(_ method: HTTPRequest.Method, _ path: String, _ body: String) async throws -> TestResponse {
        try await send(method, path, body: body, contentType: "application/x-www-form-urlencoded")
    }

    /// Makes another key for the librarian (as the operator would, while the server runs).
    func newKey(for email: String = "librarian@example.org") async throws -> String {
        try await library.appKeys.issue.execute(forEmail: email, by: .cliOperator).key
    }
}

extension TestResponse {
    /// The body as a JSON array of objects.
    var array: [[String: Any]] {
        get throws { try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) }
    }

    /// The `error` of a `{"error": "..."}` body.
    var error: String? { (try? object)?["error"] as? String }
}

/// Runs `body` against the real application built by the composition root on a temporary
/// database holding one librarian (`librarian@example.org`) with a Prolific key (unless `withKey` is false).
func withProlific<T>(
    mode: TestingSetup = .router, withKey: Bool = true, forced: Bool = false, logger: Logger = Logger(label: "shelfmark"),
    rates: RateSettings = .unlimited,
    _ body: @escaping @Sendable (ProlificFixture) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-prolific-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = ShelfmarkConfiguration(databasePath: folder.appendingPathComponent("library.sqlite").path)
    configuration.durability = .off
    configuration.port = 0
    configuration.bcryptCost = 4
    configuration.prolificForced = forced
    configuration.rates = rates
    let clock = ManualClock()
    let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDsForTests())
    defer { try? database.close() }
    let form = SignupForm(email: "librarian@example.org", password: "Librarian-Pass1", displayName: "Lib", country: "FR")
    let librarian = try await library.accounts.signUp.execute(form, role: .librarian, openSession: false, by: .cliOperator).account.id
    let key = withKey ? try await library.appKeys.issue.execute(forEmail: form.email, by: .cliOperator).key : ""
    let app = try Bootstrap.buildApplication(configuration, clock: clock, ids: RandomIDsForTests(), logger: logger)
    return try await app.test(mode) { client in
        try await body(ProlificFixture(client: client, key: key, librarian: librarian, library: library, clock: clock))
    }
}
