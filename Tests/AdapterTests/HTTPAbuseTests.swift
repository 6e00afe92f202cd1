import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Hostile input over HTTP: refused with a small problem document, nothing stored, the log intact.
/// (The slower network-level cases, such as SIGKILL, SIGTERM under load and 1,000 idle
/// connections, are in `.ci/faults`.)
@Suite("HTTP API: abuse")
struct HTTPAbuseTests {
    @Test(
        "control characters in stored text are a 400 naming the field",
        arguments: [
            ("/api/v1/books", #"{"title":"a\u0000b","authors":["A"]}"#, "title"),
            ("/api/v1/books", #"{"title":"T","authors":["A"],"description":"\u001b[2J"}"#, "description"),
            ("/api/v1/users", #"{"email":"x\u0000y@example.org","password":"Member-Pass1","country":"FR"}"#, "email"),
            ("/api/v1/users", #"{"email":"nul@example.org","password":"A!\u0000zzzzzz","country":"FR"}"#, "password"),
            (
                "/api/v1/users", #"{"email":"n@example.org","password":"Member-Pass1","displayName":"a\u0000","country":"FR"}"#,
                "displayName"
            ),
        ])
    func controlCharacters(path: String, json: String, field: String) async throws {
        try await withAPI { client in
            let response = try await client.send(.post, path, json: json, token: path.hasSuffix("users") ? .none : .some(nil))
            #expect(response.status == .badRequest, "\(response.text)")
            let errors = try response.object["errors"] as? [[String: String]]
            #expect(errors?.contains { $0["field"] == field } == true, "\(response.text)")
            #expect(try await client.send(.get, "/api/v1/audit/verify").object["ok"] as? Bool == true)
        }
    }

    @Test func aLoginWithANulInTheEmailAppendsNothing() async throws {
        // Logins are recorded on the email's stream; a NUL would cut its id short and break the hash chain.
        try await withAPI { client in
            let before = try await client.send(.get, "/api/v1/health").object["position"] as? Int
            let login = try await client.send(
                .post, "/api/v1/sessions", json: #"{"email":"x\u0000y@example.org","password":"x"}"#, token: .none)
            #expect(login.status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/health").object["position"] as? Int == before)
        }
    }

    @Test func aWalkInBorrowerNameWithControlCharactersIsRefused() async throws {
        try await withAPI { client in
            let id = try #require(try await client.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#).object["id"])
            let response = try await client.send(.post, "/api/v1/books/\(id)/checkout", json: #"{"borrowerName":"Mrs\u0007 Hudson"}"#)
            #expect(response.status == .badRequest)
            #expect(response.text.contains("borrowerName"))
        }
    }

    @Test func problemsEchoAtMostAThousandCharactersOfTheInput() async throws {
        try await withAPI { client in
            let stream = String(repeating: "s", count: 50_000)
            let history = try await client.send(.get, "/api/v1/audit/history?stream=\(stream)")
            #expect(history.status == .notFound)
            #expect(try (history.object["detail"] as? String ?? "").count <= 1_001)
            #expect(history.body.readableBytes < 2_000)

            let authors = Array(repeating: String(repeating: "a", count: 201), count: 4_000)
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["title": "T", "authors": authors]), as: UTF8.self)
            let book = try await client.send(.post, "/api/v1/books", json: json)
            #expect(book.status == .badRequest)
            #expect((try book.object["errors"] as? [Any])?.count == 50)
            #expect(book.body.readableBytes < 10_000)
        }
    }
}
