import Composition
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// Runs `body` against the real HTTP application, built by the composition root on a temporary database.
func withAPI<T>(
    mode: TestingSetup = .router, databasePath: String? = nil, maxBodyBytes: Int = 1 << 20,
    _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-http-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = ShelfmarkConfiguration(databasePath: databasePath ?? folder.appendingPathComponent("library.sqlite").path)
    configuration.durability = .off
    configuration.port = 0
    configuration.maxBodyBytes = maxBodyBytes
    let app = try Bootstrap.buildApplication(configuration, clock: ManualClock(), ids: SequentialIDs())
    return try await app.test(mode, body)
}

extension TestClientProtocol {
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil) async throws -> TestResponse {
        try await execute(
            uri: uri, method: method, headers: json == nil ? [:] : [.contentType: "application/json"],
            body: json.map { ByteBuffer(string: $0) })
    }
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
