import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

@Suite("HTTP API: passwords")
struct HTTPPasswordTests {
    static func change(_ current: String, _ new: String) -> String { #"{"currentPassword":"\#(current)","newPassword":"\#(new)"}"# }
    static func reset(_ email: String, _ code: String, _ new: String = "Fresh-Start-3") -> String {
        #"{"email":"\#(email)","code":"\#(code)","newPassword":"\#(new)"}"#
    }

    func login(_ api: APIClient, _ email: String, _ password: String) async throws -> TestResponse {
        try await api.send(.post, "/api/v1/sessions", json: #"{"email":"\#(email)","password":"\#(password)"}"#, token: .none)
    }

    func code(_ api: APIClient, for member: String) async throws -> String {
        let issued = try await api.send(.post, "/api/v1/users/\(member)/reset-code")
        #expect(issued.status == .ok, "\(issued.text)")
        return try #require(try issued.object["code"] as? String)
    }

    @Test func aChangeEndsTheOtherSessionsAndKeepsThisOne() async throws {
        try await withAPI { api in
            let first = try await api.signUpMember("ada@example.org")
            let second = try #require(try await login(api, "ada@example.org", "Member-Pass1").object["token"] as? String)
            let weak = try await api.send(.post, "/api/v1/me/password", json: Self.change("Member-Pass1", "weak"), token: second)
            #expect(weak.status == .badRequest)
            let fields = try #require(try weak.object["errors"] as? [[String: String]]).compactMap { $0["field"] }
            #expect(Set(fields) == ["newPassword"])
            let wrong = try await api.send(.post, "/api/v1/me/password", json: Self.change("Member-Pass9", "Member-Pass2!"), token: second)
            #expect(wrong.status == .forbidden && wrong.problemType == "urn:shelfmark:problem:wrong-password")
            let changed = try await api.send(
                .post, "/api/v1/me/password", json: Self.change("Member-Pass1", "Member-Pass2!"), token: second)
            #expect(changed.status == .noContent)
            #expect(try await api.send(.get, "/api/v1/me", token: first).status == .unauthorized)
            #expect(try await api.send(.get, "/api/v1/me", token: second).status == .ok)
            #expect(try await login(api, "ada@example.org", "Member-Pass1").status == .unauthorized)
            #expect(try await login(api, "ada@example.org", "Member-Pass2!").status == .created)
        }
    }

    @Test func aCodeIsShownOnceAndWorksOnce() async throws {
        try await withAPI { api in
            let token = try await api.signUpMember("ada@example.org")
            let issued = try await api.send(.post, "/api/v1/users/ADA@example.org/reset-code")
            #expect(issued.status == .ok && issued.headers[.cacheControl] == "no-store")
            let user = try #require(try issued.object["user"] as? [String: Any])
            #expect(user["email"] as? String == "ada@example.org")
            let code = try #require(try issued.object["code"] as? String)
            #expect(try issued.object["expiresAt"] as? String != nil)
            let used = try await api.send(.post, "/api/v1/password-resets", json: Self.reset("ada@example.org", code), token: .none)
            #expect(used.status == .noContent)
            #expect(try await api.send(.get, "/api/v1/me", token: token).status == .unauthorized)
            #expect(try await login(api, "ada@example.org", "Fresh-Start-3").status == .created)
            let again = try await api.send(.post, "/api/v1/password-resets", json: Self.reset("ada@example.org", code), token: .none)
            #expect(again.status == .forbidden && again.problemType == "urn:shelfmark:problem:reset-code-refused")
            // An address without an account is told exactly the same.
            let nobody = try await api.send(.post, "/api/v1/password-resets", json: Self.reset("nobody@example.org", code), token: .none)
            #expect(nobody.status == again.status && nobody.text == again.text)
            let id = try #require(user["id"] as? String)
            #expect(try await api.send(.post, "/api/v1/users/\(id)/reset-code").status == .ok)
            #expect(try await api.send(.post, "/api/v1/users/nobody@example.org/reset-code").status == .notFound)
        }
    }

    @Test func wrongCodesFromOneAddressAreThrottled() async throws {
        try await withAPI(configure: { $0.trustedProxies = ["127.0.0.1"] }) { api in
            _ = try await api.signUpMember("ada@example.org")
            let code = try await code(api, for: "ada@example.org")
            let wrong = code.hasPrefix("0") ? "1111-1111-1111" : "0000-0000-0000"
            func attempt(_ code: String) async throws -> TestResponse {
                try await api.client.execute(
                    uri: "/api/v1/password-resets", method: .post,
                    headers: [.contentType: "application/json", .init("X-Forwarded-For")!: "203.0.113.5"],
                    body: ByteBuffer(string: Self.reset("ada@example.org", code)))
            }
            for _ in 1...5 { #expect(try await attempt(wrong).status == .forbidden) }
            let throttled = try await attempt(code)
            #expect(throttled.status == .tooManyRequests && throttled.headers[.retryAfter] != nil)
        }
    }

    /// Each route for anonymous, the member, another member and a librarian.
    @Test func authorizationMatrix() async throws {
        try await withAPI { api in
            let member = try await api.signUpMember("member@example.org")
            let other = try await api.signUpMember("other@example.org")
            let change = Self.change("Member-Pass1", "Member-Pass1")
            #expect(try await api.send(.post, "/api/v1/me/password", json: change, token: .none).status == .unauthorized)
            #expect(try await api.send(.post, "/api/v1/me/password", json: change, token: member).status == .noContent)
            #expect(
                try await api.send(.post, "/api/v1/me/password", json: Self.change("Librarian-Pass1", "Member-Pass1"), token: other).status
                    == .forbidden)
            #expect(
                try await api.send(.post, "/api/v1/me/password", json: Self.change("Librarian-Pass1", "Librarian-Pass1")).status
                    == .noContent)

            let issue = "/api/v1/users/member@example.org/reset-code"
            #expect(try await api.send(.post, issue, token: .none).status == .unauthorized)
            #expect(try await api.send(.post, issue, token: member).status == .forbidden)
            #expect(try await api.send(.post, issue, token: other).status == .forbidden)
            #expect(try await api.send(.post, issue).status == .ok)

            // Anyone may reset with a code, the member too (each reset ends the member's sessions): only the code decides.
            for caller in ["anonymous", "member", "other", "librarian"] {
                let token: String?? =
                    switch caller {
                    case "anonymous": .none
                    case "member": try await login(api, "member@example.org", "Member-Pass1").object["token"] as? String
                    case "other": other
                    default: api.librarianToken
                    }
                let code = try await code(api, for: "member@example.org")
                let reset = try await api.send(
                    .post, "/api/v1/password-resets", json: Self.reset("member@example.org", code, "Member-Pass1"), token: token)
                #expect(reset.status == .noContent, "\(caller): \(reset.text)")
            }
            #expect(
                try await api.send(.post, "/api/v1/password-resets", json: Self.reset("member@example.org", "0000-0000-0000"), token: other)
                    .status == .forbidden)
        }
    }
}
