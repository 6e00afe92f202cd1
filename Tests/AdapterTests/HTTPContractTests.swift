import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// What `.ci/fuzz` (schemathesis against the served contract) found, kept as regressions.
@Suite("HTTP API: contract fuzzing findings")
struct HTTPContractTests {
    @Test(
        "control characters in a catalogue search are a 400 on q, not a 500",
        arguments: [
            "/api/v1/books?q=a%00",
            "/api/v1/books?sort=author&q=%00%C3%B7M%5CTA",
            "/api/v1/books?q=dune%01",
        ])
    func controlCharactersInSearch(uri: String) async throws {
        try await withAPI { client in
            _ = try await client.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"]}"#)
            let response = try await client.send(.get, uri)
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.problemType == "urn:shelfmark:problem:validation")
            let errors = try response.object["errors"] as? [[String: String]]
            #expect(errors?.contains { $0["field"] == "q" } == true, "\(response.text)")
        }
    }

    @Test func whitespaceControlsStillSeparateWords() async throws {
        try await withAPI { client in
            _ = try await client.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"]}"#)
            let page = try await client.send(.get, "/api/v1/books?q=dune%09herb")
            #expect(page.status == .ok)
            #expect(try page.object["total"] as? Int == 1)
        }
    }

    @Test func searchTextIsBoundedInUnicodeScalarsAsTheContractSays() async throws {
        try await withAPI { client in
            // 67 characters of 3 scalars each (a letter and two combining marks): 201 scalars.
            let heavy = String(repeating: "e\u{0301}\u{0316}", count: 67)
            let encoded = try #require(heavy.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let response = try await client.send(.get, "/api/v1/books?q=\(encoded)")
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(
                try response.object["errors"] as? [[String: String]] == [["field": "q", "message": "must be at most 200 characters long"]])
            let fits = try #require(String(heavy.unicodeScalars.dropLast()).addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            #expect(try await client.send(.get, "/api/v1/books?q=\(fits)").status == .ok)
        }
    }

    @Test(
        "control characters and over-long text in an Open Library search are a 400, before the cache or Open Library",
        arguments: [
            ("/api/v1/search?q=harry%00potter", "q"),
            ("/api/v1/search?title=x%1B%5B31m", "title"),
            ("/api/v1/search?author=\(String(repeating: "e%CC%81", count: 101))", "author"),
        ])
    func searchTextIsTypedText(uri: String, field: String) async throws {
        try await withAPI { client in
            let response = try await client.send(.get, uri, token: .none)
            #expect(response.status == .badRequest, "\(response.text)")
            let errors = try response.object["errors"] as? [[String: String]]
            #expect(errors?.contains { $0["field"] == field } == true, "\(response.text)")
        }
    }

    /// Requests a valid caller could send, but whose ids are malformed or whose parameters are incomplete.
    static let readBeforeAuthorising: [(HTTPRequest.Method, String, String?, librarianOnly: Bool)] = [
        (.delete, "/api/v1/books/zzz", nil, true),
        (.patch, "/api/v1/books/zzz", #"{"title":"T"}"#, true),
        (.delete, "/api/v1/books?confirm=false", nil, true),
        (.post, "/api/v1/books/zzz/checkout", #"{"borrowerName":"Mrs Hudson"}"#, true),
        (.get, "/api/v1/audit/history?book=&member=", nil, true),
        (.get, "/api/v1/audit/as-of?at=2026-01-01T00:00:00Z&view=member", nil, true),
        (.post, "/api/v1/loans", #"{"bookIds":["zzz"]}"#, false),
        (.post, "/api/v1/loans/zzz/return", nil, false),
        (.post, "/api/v1/loans/zzz/renew", nil, false),
        (.put, "/api/v1/me/bookmarks/books/zzz", nil, false),
    ]

    @Test("who may call is answered before the input is read: 401 anonymous, 403 member", arguments: readBeforeAuthorising)
    func authorisationComesFirst(method: HTTPRequest.Method, uri: String, json: String?, librarianOnly: Bool) async throws {
        try await withAPI { client in
            let anonymous = try await client.send(method, uri, json: json, token: .none)
            #expect(anonymous.status == .unauthorized, "\(anonymous.text)")
            guard librarianOnly else { return }
            let member = try await client.signUpMember("ada@example.org")
            let refused = try await client.send(method, uri, json: json, token: member)
            #expect(refused.status == .forbidden, "\(refused.text)")
        }
    }

    @Test(
        "a refused token is a 401 on public operations too, as the contract now declares",
        arguments: [
            "/api/v1/health", "/api/v1/books", "/api/v1/countries", "/api/v1/search?q=dune",
        ])
    func staleTokenOnPublicOperations(uri: String) async throws {
        try await withAPI { client in
            let response = try await client.send(.get, uri, token: "smk_logged-out")
            #expect(response.status == .unauthorized)
            #expect(response.problemType == "urn:shelfmark:problem:unauthenticated")
            #expect(response.headers[.wwwAuthenticate] == "Bearer")
        }
    }
}
