import APIContract
import Application
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// `GET /api/v1/books` and `GET /api/v1/books/{id}` answer a plain request without the generated layer (issue 20). The
/// contract stays the source of truth: the fast answer must be the generated handler's, byte for
/// byte, and every request it does not take goes to the generated handler.
@Suite("The book list's fast path")
struct HTTPFastPathTests {
    /// An `Accept` the fast path leaves to the generated handler, which takes it as JSON.
    static let generated: HTTPFields = [.accept: "application/json, text/plain"]

    @Test func aPlainListIsTheGeneratedHandlersAnswerByteForByte() async throws {
        try await withAPI { api in
            let titles = [#"Dune "the" \ novel"#, "Émile / ou de l'éducation", "東京物語", "📚 Shelf", "A\u{300}b", "Tabs\tand\nlines"]
            for (n, title) in titles.enumerated() {
                let json =
                    #"{"title":\#(Self.quoted(title)),"authors":["Author \#(n)"],"copies":\#(n + 1)"#
                    + (n % 2 == 0
                        ? #","isbn":"9780441172719","publisher":"Chilton / Ace","categories":["SF","a\"b"],"description":"Line one.\nLine two.","coverUrl":"https://example.org/c/\#(n).jpg","allowDuplicate":true}"#
                        : "}")
                let added = try await api.send(.post, "/api/v1/books", json: json)
                #expect(added.status == .created || added.status == .badRequest, "\(added.text)")
            }
            let ada = try await api.signUpMember("ada@example.org")
            let list = try await api.send(.get, "/api/v1/books?limit=1&sort=title", token: ada)
            let first = try #require((try list.object["items"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(first)"]}"#, token: ada).status == .created)
            for query in [
                "", "?limit=20", "?limit=2", "?limit=2&offset=2", "?offset=4&limit=2&sort=oldest", "?sort=title", "?sort=author&limit=3",
                "?limit=100&offset=1000000", "?limit=020",
            ] {
                #expect(BookListFastPath.plainQuery(query.isEmpty ? nil : String(query.dropFirst())) != nil, "\(query) takes the fast path")
                for token in [String??.some(nil), .some(ada), .none] {
                    let fast = try await api.send(.get, "/api/v1/books" + query, token: token)
                    let slow = try await api.send(.get, "/api/v1/books" + query, token: token, headers: Self.generated)
                    #expect(fast.status == .ok && slow.status == .ok, "\(query): \(fast.status) \(slow.status)")
                    #expect(fast.text == slow.text, "\(query)")
                    #expect(fast.headers[.contentType] == slow.headers[.contentType], "\(query)")
                    #expect(fast.headers[.contentLength] == slow.headers[.contentLength], "\(query)")
                }
            }
        }
    }

    @Test func everyOtherRequestIsTheGeneratedHandlers() async throws {
        try await withAPI { api in
            for query in [
                "?limit=0", "?limit=101", "?limit=-1", "?limit=1e3", "?sort=newest&sort=title", "?sort=best", "?q=dune", "?limit",
            ] {
                #expect(BookListFastPath.plainQuery(String(query.dropFirst())) == nil, "\(query) is the generated handler's")
                let fast = try await api.send(.get, "/api/v1/books" + query)
                let slow = try await api.send(.get, "/api/v1/books" + query, headers: Self.generated)
                #expect(fast.status == slow.status, "\(query)")
                #expect(fast.text == slow.text, "\(query)")
            }
            #expect(try await api.send(.get, "/api/v1/books?limit=101").status == .badRequest)
        }
    }

    @Test func aBookIsTheGeneratedHandlersAnswerByteForByteWithItsTagAndItsNotModified() async throws {
        try await withAPI { api in
            var ids: [String] = []
            for (n, title) in [#"Dune "the" \ novel"#, "東京物語 / 📚", "Plain"].enumerated() {
                let json =
                    #"{"title":\#(Self.quoted(title)),"authors":["Author \#(n)"],"copies":\#(n + 1)"#
                    + (n == 0
                        ? #","isbn":"9780441172719","description":"Line one.\nLine two.","coverUrl":"https://example.org/c.jpg"}"# : "}")
                let added = try await api.send(.post, "/api/v1/books", json: json)
                #expect(added.status == .created, "\(added.text)")
                ids.append(try #require(try added.object["id"] as? String))
            }
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(ids[0])"]}"#, token: ada).status == .created)
            for id in ids {
                #expect(BookShowFastPath.plainID("/api/v1/books/" + id) != nil, "\(id) takes the fast path")
                for token in [String??.some(nil), .some(ada), .none] {
                    let fast = try await api.send(.get, "/api/v1/books/" + id, token: token)
                    let slow = try await api.send(.get, "/api/v1/books/" + id, token: token, headers: Self.generated)
                    Self.expectSameAnswer(fast, slow, id)
                    #expect(fast.status == .ok)
                    let tag = try #require(fast.headers[.eTag])
                    for condition in [tag, "\"0\", \(tag)", "*", "\"0\"", "W/\(tag)", "not a tag", ""] {
                        let fast = try await api.send(.get, "/api/v1/books/" + id, token: token, headers: [.ifNoneMatch: condition])
                        var generated = Self.generated
                        generated[.ifNoneMatch] = condition
                        let slow = try await api.send(.get, "/api/v1/books/" + id, token: token, headers: generated)
                        Self.expectSameAnswer(fast, slow, "\(id) If-None-Match: \(condition)")
                    }
                }
            }
        }
    }

    @Test func aBookOrAPageChangedSinceItsLastAnswerIsWrittenAnew() async throws {
        try await withAPI { api in
            let added = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"],"copies":2}"#)
            let id = try #require(try added.object["id"] as? String)
            let before = try await api.send(.get, "/api/v1/books/" + id)
            let pageBefore = try await api.send(.get, "/api/v1/books")
            #expect(try before.object["available"] as? Int == 2)
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(id)"]}"#, token: ada).status == .created)
            for token in [String?.none, ada] {
                let after = try await api.send(.get, "/api/v1/books/" + id, token: token)
                Self.expectSameAnswer(after, try await api.send(.get, "/api/v1/books/" + id, token: token, headers: Self.generated), id)
                #expect(try after.object["available"] as? Int == 1)
                #expect(after.headers[.eTag] != before.headers[.eTag])
                let page = try await api.send(.get, "/api/v1/books", token: token)
                #expect(page.text == (try await api.send(.get, "/api/v1/books", token: token, headers: Self.generated)).text)
                #expect(page.text != pageBefore.text)
            }
        }
    }

    @Test func everyOtherBookRequestIsTheGeneratedHandlers() async throws {
        try await withAPI { api in
            let added = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"],"copies":1}"#)
            let id = try #require(try added.object["id"] as? String)
            let unknown = "01a20e11-286b-7470-9a86-bb0000000000"
            for path in [
                id.uppercased(), id + "/", id + "?x=1", unknown, "not-an-id", String(id.dropLast()), id + "0",
                id.replacingOccurrences(of: "-", with: "%2D"),
            ] {
                #expect(BookShowFastPath.plainID("/api/v1/books/" + path) == nil || path == unknown, "\(path) is the generated handler's")
                let fast = try await api.send(.get, "/api/v1/books/" + path)
                let slow = try await api.send(.get, "/api/v1/books/" + path, headers: Self.generated)
                #expect(fast.status == slow.status, "\(path)")
                #expect(fast.text == slow.text, "\(path)")
            }
            #expect(try await api.send(.get, "/api/v1/books/" + unknown).status == .notFound)
            var twice = HTTPFields()
            twice.append(HTTPField(name: .ifNoneMatch, value: "\"1\""))
            twice.append(HTTPField(name: .ifNoneMatch, value: "\"2\""))
            var generated = twice
            generated[.accept] = "application/json, text/plain"
            Self.expectSameAnswer(
                try await api.send(.get, "/api/v1/books/" + id, headers: twice),
                try await api.send(.get, "/api/v1/books/" + id, headers: generated),
                "two If-None-Match fields")
        }
    }

    /// The fast paths stand in front of the middlewares that refuse a media type or a body: a
    /// request with either goes to them, and is answered as it was before the fast paths moved.
    @Test func aContentTypeOrABodyIsLeftToTheMiddlewaresThatRefuseThem() async throws {
        try await withAPI { api in
            let added = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"],"copies":1}"#)
            let id = try #require(try added.object["id"] as? String)
            var twoTypes = HTTPFields()
            twoTypes.append(HTTPField(name: .contentType, value: "application/json"))
            twoTypes.append(HTTPField(name: .contentType, value: "text/plain"))
            var twoLengths = HTTPFields()
            twoLengths.append(HTTPField(name: .contentLength, value: "0"))
            twoLengths.append(HTTPField(name: .contentLength, value: "0"))
            let cases: [(String, HTTPFields, HTTPResponse.Status)] = [
                ("two Content-Type fields", twoTypes, .badRequest),
                ("two Content-Length fields", twoLengths, .badRequest),
                ("a character set other than UTF-8", [.contentType: "application/json; charset=latin1"], .unsupportedMediaType),
                ("a negative Content-Length", [.contentLength: "-1"], .badRequest),
                ("a body over the limit", [.contentLength: "999999999"], .contentTooLarge),
            ]
            for path in ["/api/v1/books?limit=20", "/api/v1/books/" + id] {
                #expect(FastPath.bodiless([:]) && FastPath.bodiless([.contentLength: "0"]))
                #expect(!FastPath.bodiless([.transferEncoding: "chunked"]), "a chunked body is admission's to bound")
                for (what, headers, status) in cases {
                    #expect(!FastPath.bodiless(headers), "\(what)")
                    let answer = try await api.send(.get, path, headers: headers)
                    #expect(answer.status == status, "\(path), \(what): \(answer.status)")
                    #expect(answer.headers[.contentType] == "application/problem+json", "\(path), \(what)")
                }
                let empty = try await api.send(.get, path, headers: [.contentLength: "0"])
                #expect(empty.status == .ok, "\(path) with an empty body: \(empty.status)")
            }
        }
    }

    /// The same status, body and representation headers.
    static func expectSameAnswer(
        _ fast: TestResponse, _ slow: TestResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(fast.status == slow.status, "\(what): \(fast.status) \(slow.status)", sourceLocation: sourceLocation)
        #expect(fast.text == slow.text, "\(what)", sourceLocation: sourceLocation)
        for field in [HTTPField.Name.contentType, .contentLength, .eTag] {
            #expect(fast.headers[field] == slow.headers[field], "\(what): \(field)", sourceLocation: sourceLocation)
        }
    }

    @Test func theWriterWritesWhatJSONEncoderWritesForEveryCharacterAndEveryAbsentField() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dates = WholeSecondDates()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try dates.encode(date))
        }
        let every = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "é東📚\u{2028}\u{2029}\u{FEFF}"
        var books: [Components.Schemas.Book] = []
        for n in 0..<8 {
            let some = n % 2 == 0
            books.append(
                .init(
                    id: UUID().uuidString.lowercased(), title: every, authors: some ? [every, "b/c"] : [],
                    isbn: some ? "9780441172719" : nil,
                    publisher: some ? every : nil, categories: some ? ["x"] : [], coverUrl: some ? "https://e.org/a/b.jpg" : nil,
                    description: some ? every : nil, copies: n, onLoan: n / 2, available: n - n / 2, holdCount: n * 1_000_000,
                    addedAt: Date(timeIntervalSince1970: 1_764_000_000.4 + Double(n)), updatedAt: Date(timeIntervalSince1970: -1.5),
                    lastCheckout: n % 3 == 0 ? nil : .init(name: n % 3 == 1 ? every : nil, at: Date(timeIntervalSince1970: 0))))
        }
        for next in [nil, 40] {
            let page = Components.Schemas.BookPage(
                value1: .init(total: 1_000, offset: 20, limit: 20, nextOffset: next), value2: .init(items: books))
            Self.expectSame(BookJSON.page(page), Array(try encoder.encode(page)))
        }
        let empty = Components.Schemas.BookPage(value1: .init(total: 0, offset: 0, limit: 20), value2: .init(items: []))
        Self.expectSame(BookJSON.page(empty), Array(try encoder.encode(empty)))
        for book in books { Self.expectSame(BookJSON.book(book), Array(try encoder.encode(book))) }
    }

    /// The same bytes, or where they first differ.
    static func expectSame(_ written: [UInt8], _ encoded: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard written != encoded else { return }
        let at = (0..<min(written.count, encoded.count)).first { written[$0] != encoded[$0] } ?? min(written.count, encoded.count)
        let around = { (bytes: [UInt8]) in String(decoding: bytes[max(0, at - 40)..<min(bytes.count, at + 40)], as: UTF8.self) }
        Issue.record("differ at \(at): written …\(around(written))… encoded …\(around(encoded))…", sourceLocation: sourceLocation)
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
