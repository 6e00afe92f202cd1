import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `PATCH /me` and `POST /users/{idOrEmail}/role` for an anonymous caller, the member, another
/// member and a librarian; the last librarian stays one.
@Suite("HTTP API: profiles and roles")
struct HTTPProfileTests {
    func me(_ api: APIClient, _ token: String?? = .some(nil)) async throws -> [String: Any] {
        try await api.send(.get, "/api/v1/me", token: token).object
    }

    @Test func editingTheProfileForAnonymousTheMemberAnotherMemberAndALibrarian() async throws {
        try await withAPI { api in
            let (ada, bob) = (try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"))
            let change = #"{"displayName":"Ada Lovelace","country":"gb"}"#
            let anonymous = try await api.send(.patch, "/api/v1/me", json: change, token: .none)
            #expect(anonymous.status == .unauthorized && anonymous.problemType == "urn:shelfmark:problem:unauthenticated")
            let edited = try await api.send(.patch, "/api/v1/me", json: change, token: ada)
            let account = try edited.object
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(account["displayName"] as? String == "Ada Lovelace" && account["country"] as? String == "GB")
            #expect(account["email"] as? String == "ada@example.org")
            // Another member changes only their own account.
            #expect(try await api.send(.patch, "/api/v1/me", json: #"{"displayName":"Bob"}"#, token: bob).status == .ok)
            #expect(try await me(api, ada)["displayName"] as? String == "Ada Lovelace")
            // A librarian too, and librarians see the change in the list of accounts.
            #expect(try await api.send(.patch, "/api/v1/me", json: #"{"country":"FR"}"#).status == .ok)
            let users = try #require(try await api.send(.get, "/api/v1/users").object["items"] as? [[String: Any]])
            #expect(users.first { $0["email"] as? String == "ada@example.org" }?["displayName"] as? String == "Ada Lovelace")
            // Nothing to change is no change.
            #expect(try await api.send(.patch, "/api/v1/me", json: "{}", token: ada).status == .ok)
        }
    }

    /// Found by an outside walk: `null` for a field read as the field left out, so a client that
    /// meant to clear something was told 200 and nothing changed. No field of the contract is nullable.
    @Test func aNullIsRefusedNamingItsFieldWhereverTheBodyHasOne() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            for (body, field, says) in [
                (#"{"displayName":null}"#, "displayName", "displayName: must be text"),
                (#"{"country":"GB","language":null}"#, "language", "language: must be text"),
            ] {
                let refused = try await api.send(.patch, "/api/v1/me", json: body, token: ada)
                let problem = try refused.object
                #expect(refused.status == .badRequest, "\(refused.text)")
                #expect(refused.problemType == "urn:shelfmark:problem:malformed-request")
                #expect((problem["errors"] as? [[String: Any]])?.first?["field"] as? String == field, "\(refused.text)")
                #expect((problem["detail"] as? String)?.hasPrefix(says) == true, "\(refused.text)")
            }
            #expect(try await me(api, ada)["country"] as? String == "FR", "nothing of a refused body was applied")
            // The same body in UTF-16, which the decoder reads too (found by an outside walk)
            let utf16 = Data(#"{"country":"GB","language":null}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            let wide = try await api.client.execute(
                uri: "/api/v1/me", method: .patch, headers: [.contentType: "application/json", .authorization: "Bearer \(ada)"],
                body: ByteBuffer(bytes: utf16))
            #expect(wide.status == .badRequest && wide.text.contains("language"), "\(wide.status) \(wide.text)")
            #expect(try await me(api, ada)["country"] as? String == "FR")
            // Deeper in a body: the list's place is named
            let book = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["F",null],"copies":1}"#)
            let bookErrors = try book.object["errors"] as? [[String: Any]]
            #expect(book.status == .badRequest && bookErrors?.first?["field"] as? String == "authors[1]", "\(book.text)")
            // Every null is named at once, not one per round trip
            let both = try await api.send(.patch, "/api/v1/me", json: #"{"displayName":null,"country":null}"#, token: ada)
            let named = try both.object["errors"] as? [[String: Any]]
            #expect(named?.compactMap { $0["field"] as? String } == ["country", "displayName"], "\(both.text)")
            // The word inside a text is text
            let nullable = try await api.send(.post, "/api/v1/books", json: #"{"title":"null","authors":["Nullity"],"copies":1}"#)
            #expect(nullable.status == .created, "\(nullable.text)")
        }
    }

    @Test func invalidFieldsAreListedAndUnknownOnesRefused() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let bad = try await api.send(.patch, "/api/v1/me", json: #"{"email":"nope","country":"ZZ","displayName":" "}"#, token: ada)
            #expect(bad.status == .badRequest && bad.problemType == "urn:shelfmark:problem:validation")
            let fields = (try bad.object["errors"] as? [[String: String]])?.compactMap { $0["field"] }
            #expect(Set(fields ?? []) == ["email", "country", "displayName"])
            let unknown = try await api.send(.patch, "/api/v1/me", json: #"{"role":"librarian"}"#, token: ada)
            #expect(unknown.status == .badRequest)
            #expect(try await me(api, ada)["role"] as? String == "member")
        }
    }

    @Test func aNewEmailMovesTheLoginAndFreesTheOldAddress() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            _ = try await api.signUpMember("bob@example.org")
            let taken = try await api.send(.patch, "/api/v1/me", json: #"{"email":"BOB@example.org"}"#, token: ada)
            #expect(taken.status == .conflict && taken.problemType == "urn:shelfmark:problem:email-taken")
            #expect(try taken.object["detail"] as? String == "an account with this email address already exists")
            let moved = try await api.send(.patch, "/api/v1/me", json: #"{"email":"Ada@Lovelace.org"}"#, token: ada)
            #expect(moved.status == .ok)
            #expect(try moved.object["email"] as? String == "ada@lovelace.org")
            // The session goes on; logins use the new address only.
            #expect(try await me(api, ada)["email"] as? String == "ada@lovelace.org")
            let old = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            #expect(old.status == .unauthorized)
            let new = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@lovelace.org","password":"Member-Pass1"}"#, token: .none)
            #expect(new.status == .created)
            _ = try await api.signUpMember("ada@example.org")
        }
    }

    @Test func roleChangesByIdOrEmailForAnonymousAMemberAnotherMemberAndALibrarian() async throws {
        try await withAPI { api in
            let (ada, bob) = (try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"))
            let adaID = try #require(try await me(api, ada)["id"] as? String)
            let promote = #"{"role":"librarian"}"#
            for uri in ["/api/v1/users/ada@example.org/role", "/api/v1/users/\(adaID)/role"] {
                #expect(try await api.send(.post, uri, json: promote, token: .none).status == .unauthorized, "\(uri)")
                #expect(try await api.send(.post, uri, json: promote, token: ada).status == .forbidden, "\(uri)")
                #expect(try await api.send(.post, uri, json: promote, token: bob).status == .forbidden, "\(uri)")
            }
            let byEmail = try await api.send(.post, "/api/v1/users/ADA@example.org/role", json: promote)
            #expect(byEmail.status == .ok)
            #expect(try byEmail.object["role"] as? String == "librarian")
            let byID = try await api.send(.post, "/api/v1/users/\(adaID)/role", json: #"{"role":"member"}"#)
            #expect(byID.status == .ok)
            #expect(try byID.object["role"] as? String == "member")
            // Unknown: a 404 naming what was looked for.
            let nobody = try await api.send(.post, "/api/v1/users/nobody@example.org/role", json: promote)
            #expect(nobody.status == .notFound)
            #expect(try nobody.object["detail"] as? String == "there is no member with the email address 'nobody@example.org'")
            let ghost = "7d2c1a0e-0000-4000-8000-000000000000"
            let unknownID = try await api.send(.post, "/api/v1/users/\(ghost)/role", json: promote)
            #expect(unknownID.status == .notFound)
            #expect(try (unknownID.object["detail"] as? String)?.contains(ghost) == true)
        }
    }

    @Test func theLastLibrarianStaysOne() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let demoteSelf = try await api.send(.post, "/api/v1/users/librarian@example.org/role", json: #"{"role":"member"}"#)
            #expect(demoteSelf.status == .conflict && demoteSelf.problemType == "urn:shelfmark:problem:last-librarian")
            let detail = try demoteSelf.object["detail"] as? String
            #expect(detail?.hasPrefix("Lib (librarian@example.org) is the library's last librarian") == true, "\(detail ?? "")")
            #expect(try await me(api)["role"] as? String == "librarian")
            // With a second librarian, either may step down, but not both.
            #expect(try await api.send(.post, "/api/v1/users/ada@example.org/role", json: #"{"role":"librarian"}"#).status == .ok)
            #expect(try await api.send(.post, "/api/v1/users/librarian@example.org/role", json: #"{"role":"member"}"#).status == .ok)
            let last = try await api.send(.post, "/api/v1/users/ada@example.org/role", json: #"{"role":"member"}"#, token: ada)
            #expect(last.status == .conflict && last.problemType == "urn:shelfmark:problem:last-librarian")
        }
    }
}

/// Usernames over HTTP: chosen at signup or with `PATCH /me`, shown on the account, a login by
/// `username` (or in the `email` field), a taken one a 409 `username-taken`.
@Suite("HTTP API: usernames")
struct HTTPUsernameTests {
    @Test func aUsernameIsChosenShownAndLoggedInWith() async throws {
        try await withAPI { api in
            let signup = #"{"email":"ada@example.org","password":"Member-Pass1","country":"FR","username":"Ada.L"}"#
            let created = try await api.send(.post, "/api/v1/users", json: signup, token: .none)
            #expect(created.status == .created, "\(created.text)")
            #expect((try created.object["user"] as? [String: Any])?["username"] as? String == "ada.l")
            for body in [#"{"username":"ADA.L","password":"Member-Pass1"}"#, #"{"email":"ada.l","password":"Member-Pass1"}"#] {
                let login = try await api.send(.post, "/api/v1/sessions", json: body, token: .none)
                #expect(login.status == .created, "\(login.text)")
            }
            let both = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","username":"ada.l","password":"Member-Pass1"}"#, token: .none)
            #expect(both.status == .badRequest && both.problemType == "urn:shelfmark:problem:validation", "\(both.text)")
            let neither = try await api.send(.post, "/api/v1/sessions", json: #"{"password":"Member-Pass1"}"#, token: .none)
            #expect(neither.status == .badRequest)
            let wrong = try await api.send(.post, "/api/v1/sessions", json: #"{"username":"ada.l","password":"Wrong-Pass1"}"#, token: .none)
            #expect(wrong.status == .unauthorized && wrong.problemType == "urn:shelfmark:problem:invalid-credentials")
        }
    }

    @Test func aTakenOrMalformedUsernameIsRefusedWithTheField() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.patch, "/api/v1/me", json: #"{"username":"ada"}"#, token: ada).status == .ok)
            let bob = try await api.signUpMember("bob@example.org")
            let taken = try await api.send(.patch, "/api/v1/me", json: #"{"username":"ADA"}"#, token: bob)
            #expect(taken.status == .conflict && taken.problemType == "urn:shelfmark:problem:username-taken", "\(taken.text)")
            let signup = #"{"email":"cat@example.org","password":"Member-Pass1","country":"FR","username":"ada"}"#
            #expect(try await api.send(.post, "/api/v1/users", json: signup, token: .none).status == .conflict)
            let bad = try await api.send(.patch, "/api/v1/me", json: #"{"username":"b@b.org"}"#, token: bob)
            #expect(bad.status == .badRequest && bad.text.contains("username"), "\(bad.text)")
            // An empty one removes Ada's, and Bob may take it then.
            let dropped = try await api.send(.patch, "/api/v1/me", json: #"{"username":""}"#, token: ada)
            let withoutName = try dropped.object
            #expect(dropped.status == .ok && withoutName["username"] == nil)
            #expect(try await api.send(.patch, "/api/v1/me", json: #"{"username":"ada"}"#, token: bob).status == .ok)
        }
    }
}
