import Foundation
import HTTPTypes
import Testing

/// No cache keeps the API's answers (found by an outside walk: `POST /sessions` answered a token,
/// and `GET /me/card` a library card, with no `Cache-Control`).
@Suite("The API's answers are kept by no cache")
struct HTTPNoStoreTests {
    @Test func tokensCardsCataloguesAndRefusalsSayNoStore() async throws {
        try await withAPI { api in
            let signup = try await api.send(
                .post, "/api/v1/users", json: #"{"email":"ada@example.org","password":"Member-Pass1","country":"FR"}"#, token: .none)
            let token = try #require(try signup.object["token"] as? String)
            let login = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            let answers = [
                ("signup", signup), ("login", login), ("me", try await api.send(.get, "/api/v1/me", token: token)),
                ("card", try await api.send(.get, "/api/v1/me/card", token: token)),
                ("books", try await api.send(.get, "/api/v1/books?limit=20")),
                ("a refusal", try await api.send(.get, "/api/v1/loans", token: token)),
                ("not found", try await api.send(.get, "/api/v1/books/\(UUID())")),
                ("unauthenticated", try await api.send(.get, "/api/v1/me", token: .none)),
            ]
            for (name, answer) in answers {
                #expect(answer.headers[.cacheControl] == "no-store", "\(name): \(answer.status) \(answer.headers)")
            }
            #expect(signup.status == .created && login.status == .created)
        }
    }
}
