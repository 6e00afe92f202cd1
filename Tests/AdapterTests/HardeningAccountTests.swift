import Application
import Composition
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Accounts under attack: one address in two Unicode spellings, a stranger locking a member out,
/// one client guessing many addresses, passwords past bcrypt's 72 bytes.
@Suite("HTTP hardening: accounts")
struct HardeningAccountTests {
    /// Sends as the client at `address` (through a trusted proxy's `X-Forwarded-For`).
    func send(_ api: APIClient, _ path: String, _ json: String, from address: String) async throws -> TestResponse {
        try await api.client.execute(
            uri: path, method: .post, headers: [.contentType: "application/json", .init("X-Forwarded-For")!: address],
            body: ByteBuffer(string: json))
    }

    func signup(_ email: String, password: String = "Member-Pass1") -> String {
        #"{"email":"\#(email)","password":"\#(password)","country":"FR"}"#
    }

    func login(_ email: String, _ password: String) -> String { #"{"email":"\#(email)","password":"\#(password)"}"# }

    @Test func oneAddressHasOneSpellingAndNoInvisibleCharacters() async throws {
        try await withAPI { api in
            #expect(try await api.send(.post, "/api/v1/users", json: signup("zo\u{EB}@example.org"), token: .none).status == .created)
            let decomposed = try await api.send(.post, "/api/v1/users", json: signup("zoe\u{308}@example.org"), token: .none)
            #expect(decomposed.status == .conflict, "\(decomposed.text)")
            #expect(try await api.send(.post, "/api/v1/users", json: signup("ZO\u{CB}@example.org"), token: .none).status == .conflict)
            #expect(try await api.send(.post, "/api/v1/users", json: signup("lib@example.org"), token: .none).status == .created)
            let hidden = try await api.send(.post, "/api/v1/users", json: signup("lib\u{200B}@example.org"), token: .none)
            #expect(hidden.status == .badRequest, "\(hidden.text)")
            let login = try await api.send(
                .post, "/api/v1/sessions", json: self.login("ZOE\u{308}@example.org", "Member-Pass1"), token: .none)
            #expect(login.status == .created, "\(login.text)")
        }
    }

    @Test func aStrangersFailuresLockOnlyTheStrangerOut() async throws {
        try await withAPI(mode: .live, configure: { $0.trustedProxies = ["127.0.0.1"] }) { api in
            #expect(try await api.send(.post, "/api/v1/users", json: signup("zo\u{EB}@example.org"), token: .none).status == .created)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 {
                statuses.append(
                    try await send(api, "/api/v1/sessions", login("zoe\u{308}@example.org", "Wrong-Pass1"), from: "203.0.113.5").status)
            }
            #expect(statuses == Array(repeating: .unauthorized, count: 5) + [.tooManyRequests])
            let stranger = try await send(api, "/api/v1/sessions", login("zo\u{EB}@example.org", "Member-Pass1"), from: "203.0.113.5")
            #expect(stranger.status == .tooManyRequests)
            #expect(stranger.headers[.retryAfter] != nil)
            let owner = try await send(api, "/api/v1/sessions", login("zo\u{EB}@example.org", "Member-Pass1"), from: "198.51.100.7")
            #expect(owner.status == .created, "\(owner.text)")
        }
    }

    @Test func oneClientMakesOnlySoManyAttemptsAMinute() async throws {
        try await withAPI(
            mode: .live,
            configure: {
                $0.trustedProxies = ["127.0.0.1"]; $0.authAttemptsPerMinute = 3
            }
        ) { api in
            var statuses: [HTTPResponse.Status] = []
            for n in 0..<4 {
                statuses.append(
                    try await send(api, "/api/v1/sessions", login("guess\(n)@example.org", "Wrong-Pass1"), from: "203.0.113.9").status)
            }
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
            let signup = try await send(api, "/api/v1/users", signup("new@example.org"), from: "203.0.113.9")
            #expect(signup.status == .tooManyRequests)
            #expect(Int(signup.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(signup.problemType == "urn:shelfmark:problem:too-many-attempts")
            #expect(try await send(api, "/api/v1/users", self.signup("new@example.org"), from: "198.51.100.1").status == .created)
        }
    }

    @Test func passwordsPastBcryptsLimitAreRefusedAtLoginToo() async throws {
        try await withAPI { api in
            let password = "A!" + String(repeating: "p", count: 70)  // 72 bytes
            #expect(
                try await api.send(.post, "/api/v1/users", json: signup("ada@example.org", password: password), token: .none).status
                    == .created)
            let longer = try await api.send(.post, "/api/v1/sessions", json: login("ada@example.org", password + "anything"), token: .none)
            #expect(longer.status == .badRequest, "\(longer.text)")
            #expect(
                try await api.send(.post, "/api/v1/sessions", json: login("ada@example.org", password), token: .none).status == .created)
        }
    }
}
