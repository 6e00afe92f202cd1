import Application
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// What the Prolific API says to the apps is in their terms: forms, JSON or forms, the apps'
/// date form, the apps' routes; never the API's pages, never the key.
@Suite("Prolific API: refusals in the apps' terms")
struct ProlificWordsTests {
    @Test func formsAreRefusedAsForms() async throws {
        try await withProlific { app in
            let twice = try await app.form(.post, "books", "title=A&title=B&author=A")
            #expect(twice.status == .badRequest && twice.error?.hasPrefix("the form names 'title' twice") == true, "\(twice.text)")
            let malformed = try await app.form(.post, "books", "title=X%ZZ&author=A")
            #expect(
                malformed.status == .badRequest && malformed.error?.hasPrefix("the form body is malformed") == true, "\(malformed.text)")
            #expect(malformed.error?.contains("page") == false, "\(malformed.text)")
        }
    }

    /// The French app ("Bibliothèque") sends its phone's `Accept-Language`: refusals come back in French.
    @Test func aFrenchPhoneIsAnsweredInFrench() async throws {
        try await withProlific { app in
            let body = #"{"author":"A"}"#
            let english = try await app.send(.post, "books", body: body, contentType: "application/json")
            #expect(english.status == .badRequest && english.error?.contains("required") == true, "\(english.text)")
            let french = try await app.send(
                .post, "books", body: body, contentType: "application/json", language: "fr-FR;q=1.0, en-FR;q=0.9")
            #expect(french.status == .badRequest, "\(french.text)")
            let words = try #require(french.error)
            #expect(words.contains("title") && words.contains("obligatoire"), "\(words)")
        }
    }

    /// Found by an outside reader: a `/clean` kept for several reasons joined them with "; " in French too.
    @Test func theReasonsACleanKeepsBooksForAreJoinedAsTheLanguageWrites() async throws {
        try await withProlific { app in
            for title in ["Dune", "Emma"] { _ = try await app.json(.post, "books", #"{"title":"\#(title)","author":"A"}"#) }
            for number in [1, 2] { #expect(try await app.json(.put, "books/\(number)", #"{"lastCheckedOutBy":"Holmes"}"#).status == .ok) }
            let english = try await app.send(.delete, "clean")
            #expect(english.status == .conflict && english.error?.contains("; ") == true, "\(english.text)")
            let french = try await app.send(.delete, "clean", language: "fr")
            #expect(french.status == .conflict && french.error?.contains("\u{00A0}; ") == true, "\(french.text)")
        }
    }

    @Test func anotherMediaTypeIsToldJSONOrAForm() async throws {
        try await withProlific { app in
            let xml = try await app.send(.post, "books", body: "<book/>", contentType: "application/xml")
            #expect(xml.status == .unsupportedMediaType, "\(xml.text)")
            let words = try #require(xml.error)
            #expect(words.contains("application/json") && words.contains("application/x-www-form-urlencoded"), "\(words)")
        }
    }

    @Test func aBadCheckoutTimeNamesTheAppsForm() async throws {
        try await withProlific { app in
            let bad = try await app.json(.post, "books", #"{"title":"T","author":"A","lastCheckedOut":"2026-12-01T09:00:00Z"}"#)
            #expect(bad.status == .badRequest, "\(bad.text)")
            let words = try #require(bad.error)
            #expect(words.contains("lastCheckedOut") && words.contains("yyyy-MM-dd HH:mm:ss") && words.contains("UTC"), "\(words)")
            #expect(!words.contains("ISO") && !words.contains("T09"), "\(words)")
        }
    }

    @Test func anUnknownPathNamesTheRoutesNeverTheKey() async throws {
        try await withProlific { app in
            for path in ["shelves", "books/1/cover", ""] {
                let response = try await app.send(.get, path)
                let words = try #require(response.error, "\(path): \(response.text)")
                #expect(response.status == .notFound && words.contains("books, books/N") && words.contains("clean"), "\(path): \(words)")
                #expect(!words.contains("{key}") && !words.contains(app.key) && !words.contains("openapi"), "\(path): \(words)")
            }
        }
    }
}
