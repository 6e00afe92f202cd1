import Application
import Composition
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Logging
import Testing

/// A test client that sends as the librarian the fixture created, unless told otherwise.
struct APIClient: Sendable {
    let client: any TestClientProtocol
    /// A bearer token of a librarian account (`librarian@example.org`).
    let librarianToken: String

    /// Sends a request; `token` defaults to the librarian's, `.none` sends no Authorization header;
    /// `headers` go with it (conditions, ids).
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String?? = .some(nil), language: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let language { headers[.acceptLanguage] = language }
        if json != nil { headers[.contentType] = "application/json" }
        let bearer: String? =
            switch token {
            case .some(nil): librarianToken
            case .some(let value?): value
            case .none: nil
            }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// Signs up a member over HTTP and returns its token.
    func signUpMember(_ email: String, password: String = "Member-Pass1") async throws -> String {
        let response = try await send(
            .post, "/api/v1/users", json: #"{"email":"\#(email)","password":"\#(password)","country":"FR"}"#, token: .none)
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.object["token"] as? String)
    }
}

/// Runs `body` against the real HTTP application, built by the composition root on a temporary
/// database that already holds one librarian, created by the operator as the CLI would.
func withAPI<T>(
    mode: TestingSetup = .router, databasePath: String? = nil, maxBodyBytes: Int = 1 << 20, clock: ManualClock = ManualClock(),
    configure: (inout ShelfmarkConfiguration) -> Void = { _ in }, logger: Logger = Logger(label: "shelfmark"),
    _ body: @escaping @Sendable (APIClient) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-http-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = ShelfmarkConfiguration(databasePath: databasePath ?? folder.appendingPathComponent("library.sqlite").path)
    configuration.durability = .off
    configuration.port = 0
    configuration.maxBodyBytes = maxBodyBytes
    configuration.bcryptCost = 4
    // The loopback fakes answer from this same, busy test process: a slow answer is not the fault under test.
    configuration.lookupTimeout = 60
    // Likewise Open Library's: an import is a book, its work and its author, one after the other (the deadline tests set theirs).
    configuration.openLibraryDeadline = 60
    // Tests send many requests from one address in a moment; the rate tests set their own rates.
    configuration.rates = .unlimited
    configure(&configuration)
    let token = try await librarianToken(configuration, clock: clock)
    let app = try Bootstrap.buildApplication(configuration, clock: clock, ids: RandomIDsForTests(), logger: logger)
    return try await app.test(mode) { client in try await body(APIClient(client: client, librarianToken: token)) }
}

private func librarianToken(_ configuration: ShelfmarkConfiguration, clock: ManualClock) async throws -> String {
    let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDsForTests())
    defer { try? database.close() }
    let form = SignupForm(email: "librarian@example.org", password: "Librarian-Pass1", displayName: "Lib", country: "FR")
    if let signedIn = try? await library.accounts.signUp.execute(form, role: .librarian, by: .cliOperator) {
        return try #require(signedIn.session?.token)
    }
    return try #require(try await library.accounts.logIn.execute(login: form.email, password: form.password).session?.token)
}

/// Random ids: several applications may share one database file in a test.
struct RandomIDsForTests: IDGenerator {
    func next() -> UUID { UUID() }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var object: [String: Any] {
        get throws { try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) }
    }

    /// The problem document's `type`, after checking the content type says it is one.
    var problemType: String? {
        guard headers[.contentType] == "application/problem+json" else { return nil }
        return (try? object)?["type"] as? String
    }
}
