import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

@Suite("HTTP API: accounts and authorization")
struct HTTPAccountTests {
    @Test func signupLoginMeLogout() async throws {
        try await withAPI { api in
            let signup = try await api.send(
                .post, "/api/v1/users", json: #"{"email":"Ada@Example.org","password":"Analytical-1","displayName":"Ada","country":"gb"}"#,
                token: .none)
            #expect(signup.status == .created)
            let user = try #require(try signup.object["user"] as? [String: Any])
            #expect(
                user["email"] as? String == "ada@example.org" && user["country"] as? String == "GB" && user["role"] as? String == "member")
            #expect(signup.text.contains("password") == false)

            let login = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Analytical-1"}"#, token: .none)
            #expect(login.status == .created)
            let token = try #require(try login.object["token"] as? String)
            let me = try await api.send(.get, "/api/v1/me", token: token)
            let meEmail = try me.object["email"] as? String
            #expect(me.status == .ok && meEmail == "ada@example.org")

            #expect(try await api.send(.delete, "/api/v1/sessions/current", token: token).status == .noContent)
            let after = try await api.send(.get, "/api/v1/me", token: token)
            #expect(after.status == .unauthorized)
            #expect(after.headers[.wwwAuthenticate] == "Bearer")
            #expect(after.problemType == "urn:shelfmark:problem:unauthenticated")
        }
    }

    @Test func signupErrorsListEveryRuleByField() async throws {
        try await withAPI { api in
            let response = try await api.send(
                .post, "/api/v1/users", json: #"{"email":"nope","password":"short","country":"ZZ"}"#, token: .none)
            #expect(response.status == .badRequest)
            let errors = try #require(try response.object["errors"] as? [[String: String]])
            #expect(errors.filter { $0["field"] == "password" }.count == 3)
            #expect(errors.contains { $0["field"] == "email" })
            let missing = try await api.send(.post, "/api/v1/users", json: #"{"email":"a@b.org"}"#, token: .none)
            #expect(missing.status == .badRequest)
            _ = try await api.signUpMember("taken@example.org")
            let taken = try await api.send(
                .post, "/api/v1/users", json: #"{"email":"TAKEN@example.org","password":"Member-Pass1","country":"FR"}"#, token: .none)
            #expect(taken.status == .conflict && taken.problemType == "urn:shelfmark:problem:email-taken")
        }
    }

    @Test func aSignupAskingForARoleOrAnyOtherFieldIsRefusedNotQuietlyMadeAMember() async throws {
        try await withAPI { api in
            for extra in [#""role":"librarian""#, #""emial":"typo@example.org""#] {
                let response = try await api.send(
                    .post, "/api/v1/users", json: #"{"email":"eve@example.org","password":"Member-Pass1","country":"FR",\#(extra)}"#,
                    token: .none)
                #expect(response.status == .badRequest, "\(extra): \(response.text)")
                #expect(response.text.contains("is not a field of this request"), "\(extra): \(response.text)")
            }
            let users = try await api.send(.get, "/api/v1/users").object
            #expect((users["items"] as? [[String: Any]])?.contains { $0["email"] as? String == "eve@example.org" } == false)
        }
    }

    @Test func failedLoginsAreThrottledWith429() async throws {
        try await withAPI { api in
            _ = try await api.signUpMember("ada@example.org")
            for _ in 1...5 {
                let wrong = try await api.send(
                    .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Wrong-1"}"#, token: .none)
                #expect(wrong.status == .unauthorized && wrong.problemType == "urn:shelfmark:problem:invalid-credentials")
            }
            let refused = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] != nil)
        }
    }

    @Test func expiredTokensAreRefused() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let token = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.get, "/api/v1/me", token: token).status == .ok)
            clock.advance(by: 31 * 24 * 3600)
            #expect(try await api.send(.get, "/api/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test func logoutEverywhereRevokesEverySession() async throws {
        try await withAPI { api in
            let first = try await api.signUpMember("ada@example.org")
            let second = try #require(
                try await api.send(.post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
                    .object["token"] as? String)
            #expect(try await api.send(.delete, "/api/v1/sessions", token: first).status == .noContent)
            #expect(try await api.send(.get, "/api/v1/me", token: second).status == .unauthorized)
        }
    }

    /// Every route, as anonymous, member and librarian: the expected status of each.
    @Test func authorizationMatrix() async throws {
        try await withAPI { api in
            let member = try await api.signUpMember("member@example.org")
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#).object["id"] as? String)
            let memberID = try #require(try await api.send(.get, "/api/v1/me", token: member).object["id"] as? String)
            let routes:
                [(
                    HTTPRequest.Method, String, String?, anonymous: HTTPResponse.Status, member: HTTPResponse.Status,
                    librarian: HTTPResponse.Status
                )] = [
                    (.get, "/api/v1/books", nil, .ok, .ok, .ok),
                    (.get, "/api/v1/books/\(book)", nil, .ok, .ok, .ok),
                    (.post, "/api/v1/books", #"{"title":"N","authors":["A"]}"#, .unauthorized, .forbidden, .created),
                    (.patch, "/api/v1/books/\(book)", #"{"title":"U"}"#, .unauthorized, .forbidden, .ok),
                    (.get, "/api/v1/me", nil, .unauthorized, .ok, .ok),
                    (.get, "/api/v1/users", nil, .unauthorized, .forbidden, .ok),
                    (.post, "/api/v1/users/\(memberID)/role", #"{"role":"member"}"#, .unauthorized, .forbidden, .ok),
                    (.get, "/api/v1/countries", nil, .ok, .ok, .ok),
                    (.get, "/api/v1/health", nil, .ok, .ok, .ok),
                    (.delete, "/api/v1/books?confirm=true", nil, .unauthorized, .forbidden, .ok),
                    (.delete, "/api/v1/books/\(book)", nil, .unauthorized, .forbidden, .noContent),
                ]
            for (method, uri, json, anonymous, asMember, asLibrarian) in routes {
                #expect(try await api.send(method, uri, json: json, token: .none).status == anonymous, "anonymous \(method) \(uri)")
                #expect(try await api.send(method, uri, json: json, token: member).status == asMember, "member \(method) \(uri)")
                #expect(try await api.send(method, uri, json: json).status == asLibrarian, "librarian \(method) \(uri)")
            }
            #expect(try await api.send(.get, "/api/v1/books", token: "smk_not-a-session").status == .unauthorized)
            #expect(try await api.send(.delete, "/api/v1/sessions/current", token: .none).status == .unauthorized)
        }
    }

    @Test func promotionOverHTTPTakesEffectAtOnce() async throws {
        try await withAPI { api in
            let member = try await api.signUpMember("bob@example.org")
            let id = try #require(try await api.send(.get, "/api/v1/me", token: member).object["id"] as? String)
            #expect(try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#, token: member).status == .forbidden)
            let promoted = try await api.send(.post, "/api/v1/users/\(id)/role", json: #"{"role":"librarian"}"#)
            #expect(try promoted.object["role"] as? String == "librarian")
            #expect(try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#, token: member).status == .created)
            #expect(try await api.send(.post, "/api/v1/users/nope/role", json: #"{"role":"librarian"}"#).status == .notFound)
            let users = try await api.send(.get, "/api/v1/users").object
            #expect(users["total"] as? Int == 2)
        }
    }

    @Test func countriesAndTheDefaultCountry() async throws {
        try await withAPI { api in
            let list = try await api.send(.get, "/api/v1/countries?limit=100&offset=200", token: .none)
            #expect(try list.object["total"] as? Int == 249 && list.object["nextOffset"] == nil)
            #expect((try list.object["items"] as? [[String: Any]])?.count == 49)
            let france = try await api.send(.get, "/api/v1/countries?limit=100&offset=50", token: .none)
            let countries = try #require(try france.object["items"] as? [[String: Any]])
            #expect(countries.contains { $0["code"] as? String == "FR" && $0["frenchName"] as? String == "France" })
            let guess = try await api.client.execute(
                uri: "/api/v1/countries/default", method: .get, headers: [.acceptLanguage: "fr-CA,fr;q=0.8"])
            #expect(try guess.object["code"] as? String == "CA")
            let none = try await api.client.execute(uri: "/api/v1/countries/default", method: .get, headers: [.acceptLanguage: "en"])
            #expect(none.status == .noContent)
        }
    }
}

/// How the API writes its JSON: compact, keys sorted, so an answer reads the same from one process to the next.
@Suite("HTTP: the JSON an answer is written in")
struct HTTPJSONFormTests {
    @Test func answersAreCompactWithKeysSorted() async throws {
        try await withAPI { api in
            let added = try await api.send(
                .post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"],"categories":["SF/Classic"]}"#)
            #expect(added.status == .created, "\(added.text)")
            let text = try await api.send(.get, "/api/v1/books?limit=5").text
            #expect(!text.contains("\n") && !text.contains(": "), "\(text)")
            #expect(text.hasPrefix(#"{"items":[{"addedAt":"#), "\(text)")
            #expect(text.contains(#""categories":["SF/Classic"]"#), "slashes are not escaped: \(text)")
            let keys = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]).keys.sorted()
            let places = keys.compactMap { text.range(of: #""\#($0)":"#)?.lowerBound }
            #expect(places.count == keys.count && places == places.sorted(), "the top level's keys in order: \(text)")
        }
    }
}
