import APIContract
import Foundation
import HummingbirdTesting
import Testing

/// Problem documents in the reader's language (`Accept-Language`), saying which in
/// `Content-Language`; the type URN and field names never change.
@Suite("HTTP API: English and French")
struct HTTPLanguageTests {
    func addBook(_ api: APIClient, _ title: String) async throws -> String {
        let added = try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":1}"#)
        return try #require(try added.object["id"] as? String, "\(added.text)")
    }

    @Test func aRefusalIsInFrenchForAFrenchReader() async throws {
        try await withAPI { api in
            let dune = try await addBook(api, "Dune")
            _ = try await api.send(.post, "/api/v1/books/\(dune)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#)
            let ada = try await api.signUpMember("ada@example.org")
            let body = #"{"bookIds":["\#(dune)"]}"#
            let english = try await api.send(.post, "/api/v1/loans", json: body, token: ada)
            #expect(english.headers[.contentLanguage] == "en")
            #expect(try english.object["title"] as? String == "Conflicts with the library's state")
            #expect(try english.object["detail"] as? String == "no copy of “Dune” is available: the only copy is on loan")

            let french = try await api.send(.post, "/api/v1/loans", json: body, token: ada, language: "fr-CA,fr;q=0.9,en;q=0.8")
            #expect(french.status == .conflict)
            #expect(french.headers[.contentLanguage] == "fr")
            #expect(french.headers[.vary]?.contains("Accept-Language") == true)
            #expect(try french.object["type"] as? String == "urn:shelfmark:problem:conflict")
            #expect(try french.object["title"] as? String == "En conflit avec l’état de la bibliothèque")
            let detail = try #require(try french.object["detail"] as? String)
            #expect(detail.contains("«\u{A0}Dune\u{A0}»"), "\(detail)")
            #expect(!detail.contains("copy"), "\(detail)")
        }
    }

    @Test func fieldErrorsAreInFrenchAndTheFieldsKeepTheirNames() async throws {
        try await withAPI { api in
            let refused = try await api.send(
                .post, "/api/v1/users", json: #"{"email":"ada@example.org","password":"short","country":"FR"}"#, token: .none,
                language: "fr")
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.contentLanguage] == "fr")
            #expect(try refused.object["title"] as? String == "Données non valides")
            let errors = try #require(try refused.object["errors"] as? [[String: Any]])
            let password = try #require(errors.first { $0["field"] as? String == "password" })
            let message = try #require(password["message"] as? String)
            #expect(message.contains("caractères"), "\(message)")
        }
    }

    @Test func theTransportsOwnProblemsAreInFrenchToo() async throws {
        try await withAPI { api in
            let missing = try await api.send(.get, "/api/v1/no-such-thing", language: "fr")
            #expect(missing.status == .notFound)
            #expect(try missing.object["title"] as? String == "Introuvable")
            #expect(try missing.object["type"] as? String == "urn:shelfmark:problem:not-found")
            let english = try await api.send(.get, "/api/v1/no-such-thing", language: "de-DE, en;q=0.5")
            #expect(try english.object["title"] as? String == "Not found")
            #expect(english.headers[.contentLanguage] == "en")
        }
    }

    @Test func aLanguageTheLibraryDoesNotSpeakGetsEnglish() async throws {
        try await withAPI { api in
            let missing = try await api.send(.get, "/api/v1/books/nope", language: "de, ja;q=0.5")
            #expect(missing.headers[.contentLanguage] == "en")
        }
    }

    /// Every problem type the sources name (`slug: "…"`) has a title of its own in both languages.
    @Test func everyProblemTypeHasATitleInBothLanguages() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var slugs: Set<String> = []
        for case let file as String in FileManager.default.enumerator(atPath: sources.path) ?? .init() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /slug: "([a-z-]+)"/) { slugs.insert(String(match.output.1)) }
        }
        #expect(slugs.count > 20)
        let unknown = slugs.subtracting(Problem.titledTypes).sorted()
        #expect(unknown.isEmpty, "problem types with no title: \(unknown)")
    }
}
