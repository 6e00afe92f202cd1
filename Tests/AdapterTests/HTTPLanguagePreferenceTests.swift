import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The member's saved language through the API: `PATCH /me`, signup, and the `User` representation.
@Suite("HTTP API: language preference")
struct HTTPLanguagePreferenceTests {
    @Test func aMemberSavesALanguageAndTheAccountShowsIt() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let before = try await api.send(.get, "/api/v1/me", token: ada).object
            #expect(before["language"] == nil, "no preference is no field")
            let edited = try await api.send(.patch, "/api/v1/me", json: #"{"language":"fr"}"#, token: ada)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.object["language"] as? String == "fr")
            #expect(try await api.send(.get, "/api/v1/me", token: ada).object["language"] as? String == "fr")
            // A regional tag is its language.
            #expect(
                try await api.send(.patch, "/api/v1/me", json: #"{"language":"en-GB"}"#, token: ada).object["language"] as? String == "en")
        }
    }

    @Test func aLanguageTheLibraryDoesNotSpeakIsAValidationProblemNamingTheField() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            for value in [#""de""#, #""""#] {
                let bad = try await api.send(.patch, "/api/v1/me", json: #"{"language":\#(value),"displayName":"Ada L."}"#, token: ada)
                #expect(bad.status == .badRequest && bad.problemType == "urn:shelfmark:problem:validation", "\(bad.text)")
                #expect((try bad.object["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["language"])
            }
            let account = try await api.send(.get, "/api/v1/me", token: ada).object
            #expect(account["language"] == nil && account["displayName"] as? String != "Ada L.")
        }
    }

    @Test func aSignupMayNameTheLanguage() async throws {
        try await withAPI { api in
            let body = #"{"email":"ada@example.org","password":"Member-Pass1","country":"FR","language":"fr-CA"}"#
            let signedUp = try await api.send(.post, "/api/v1/users", json: body, token: .none)
            #expect(signedUp.status == .created, "\(signedUp.text)")
            #expect((try signedUp.object["user"] as? [String: Any])?["language"] as? String == "fr")
        }
    }
}
