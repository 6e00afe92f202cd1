import Application
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenLibrary
import Synchronization
import Testing

/// Open Library answering as an attacker (or a broken proxy) would: keys naming other hosts,
/// redirects elsewhere, answers that are no answer, a 429. Found by an outside walk of the server
/// against fakes like these; each case is one of its findings.
@Suite("Open Library answering as an attacker would")
struct OpenLibraryHostileTests {
    /// A fake answering each path with what `answers` holds for it (else 404), recording the paths asked.
    final class Scripted: Sendable {
        struct Answer: Sendable {
            var status: HTTPResponse.Status = .ok
            var headers: HTTPFields = [:]
            var body = ""
        }
        let answers: Mutex<[String: Answer]>
        let asked = Mutex<[String]>([])

        init(_ answers: [String: Answer] = [:]) { self.answers = Mutex(answers) }

        func run<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
            let router = Router()
            router.get("**") { request, _ -> Response in
                self.asked.withLock { $0.append(request.uri.path) }
                guard let answer = self.answers.withLock({ $0[request.uri.path] }) else { return Response(status: .notFound) }
                var headers = answer.headers
                headers[.contentType] = "application/json"
                return Response(status: answer.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
            }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            return try await app.test(.live) { client in try await body("http://127.0.0.1:\(try #require(client.port))") }
        }
    }

    static func settings(_ base: String) -> OpenLibrarySettings {
        var settings = OpenLibrarySettings()
        settings.baseURL = base
        settings.coversURL = "https://covers.example"
        settings.timeout = .seconds(20)
        settings.deadline = .seconds(30)
        settings.retryBase = .milliseconds(10)
        return settings
    }

    @Test func keysNamingAnotherHostAreNotFollowed() async throws {
        let inside = Scripted([
            "/works/OL1W.json": .init(body: #"{"title":"INTERNAL","description":"internal"}"#),
            "/authors/OL2A.json": .init(body: #"{"name":"INTERNAL-SECRET"}"#),
        ])
        try await inside.run { other in
            let port = other.split(separator: ":").last!
            let edition = """
                {"title":"Evil import","works":[{"key":"@127.0.0.1:\(port)/works/OL1W"}],
                 "authors":[{"key":"@127.0.0.1:\(port)/authors/OL2A"},{"key":".evil.example/authors/OL3A"},{"key":"/authors/OL4A"},
                            {"key":"/authors/OL5\\u0301A"}],
                 "covers":[null],"publishers":"Puffin","isbn_13":[9780306406157],"description":{"value":5}}
                """
            let upstream = Scripted([
                "/isbn/9780140328721.json": .init(body: edition), "/authors/OL4A.json": .init(body: #"{"name":"Roald Dahl"}"#),
            ])
            try await upstream.run { base in
                let found = try #require(try await OpenLibraryLookup(settings: Self.settings(base)).book(isbn: ISBN(parsing: "0140328726")))
                #expect(found.authors == ["Roald Dahl"] && found.title == "Evil import" && found.description == nil)
                #expect(upstream.asked.withLock { $0 } == ["/isbn/9780140328721.json", "/authors/OL4A.json"])
            }
            #expect(inside.asked.withLock { $0 }.isEmpty, "the other host was asked: \(inside.asked.withLock { $0 })")
        }
    }

    /// Found by an outside walk: a work whose covers were not numbers lost its title too.
    @Test func aFieldOfTheWrongTypeIsLeftOutAlone() async throws {
        let upstream = Scripted([
            "/isbn/9780140328721.json": .init(body: #"{"works":[{"key":"/works/OL2W"}],"covers":[null]}"#),
            "/works/OL2W.json": .init(body: #"{"title":"Work title","covers":["x"],"description":"Told well"}"#),
        ])
        try await upstream.run { base in
            let lookup = OpenLibraryLookup(settings: Self.settings(base))
            let found = try await lookup.book(isbn: ISBN(parsing: "0140328726"))
            #expect(found?.title == "Work title" && found?.description == "Told well" && found?.coverURL == nil)
        }
    }

    @Test func aRedirectIsFollowedOnlyWithinOpenLibrary() async throws {
        let inside = Scripted(["/private-search": .init(body: #"{"numFound":1,"docs":[{"key":"/works/OL9W","title":"FROM-INSIDE"}]}"#)])
        try await inside.run { other in
            let upstream = Scripted([
                "/search.json": .init(status: .found, headers: [.location: other + "/private-search"]),
                "/isbn/9780140328721.json": .init(status: .found, headers: [.location: "/books/OL7353617M.json"]),
                "/books/OL7353617M.json": .init(body: #"{"title":"Fantastic Mr. Fox"}"#),
            ])
            try await upstream.run { base in
                await #expect(throws: SearchUnavailable.self) {
                    try await OpenLibrarySearch(settings: Self.settings(base)).search(SearchQuery(text: "redirected"))
                }
                let found = try await OpenLibraryLookup(settings: Self.settings(base)).book(isbn: ISBN(parsing: "0140328726"))
                #expect(found?.title == "Fantastic Mr. Fox", "Open Library's own redirect (isbn to edition) is followed")
            }
            #expect(inside.asked.withLock { $0 }.isEmpty, "the redirect to another host was followed")
        }
        // A redirect in circles is given up after a few hops, and not asked again (it was, 15 times an import).
        let circles = Scripted(["/isbn/9780140328721.json": .init(status: .found, headers: [.location: "/isbn/9780140328721.json"])])
        try await circles.run { base in
            await #expect(throws: SearchUnavailable.self) {
                try await OpenLibraryLookup(settings: Self.settings(base)).book(isbn: ISBN(parsing: "0140328726"))
            }
            #expect(circles.asked.withLock { $0.count } == 5, "\(circles.asked.withLock { $0.count })")
        }
    }

    @Test func anAnswerWithoutItsHitsIsNoAnswerAndOneBadHitIsLeftOutAlone() async throws {
        let upstream = Scripted(["/search.json": .init(body: "{}")])
        try await upstream.run { base in
            let search = OpenLibrarySearch(settings: Self.settings(base))
            for body in ["{}", #"{"numFound":-5,"docs":[]}"#] {
                upstream.answers.withLock { $0["/search.json"] = .init(body: body) }
                await #expect(throws: SearchUnavailable.self, "\(body)") { try await search.search(SearchQuery(text: "x")) }
            }
            let mixed = """
                {"numFound":3,"docs":[{"key":"/works/OL1W","title":"Good \\u202Eevil\\u0000 one"},
                 {"key":"/works/OL2W","first_publish_year":"1954"},{"key":"/works/OL3W","title":"Also good","author_name":["A\\u0007B"]},
                 {"key":"/works/../../x","title":"a key that is no work's"}]}
                """
            upstream.answers.withLock { $0["/search.json"] = .init(body: mixed) }
            let page = try await search.search(SearchQuery(text: "x"))
            #expect(page.results.map(\.workKey) == ["OL1W", "OL3W"])
            #expect(page.results.map(\.title) == ["Good evil one", "Also good"] && page.results[1].authors == ["AB"])
        }
    }

    @Test func aPageDeeperThanOpenLibraryGivesIsNeverOffered() async throws {
        let docs = (1...20).map { #"{"key":"/works/OL\#($0)W","title":"T"}"# }.joined(separator: ",")
        let upstream = Scripted(["/search.json": .init(body: #"{"numFound":2500000,"docs":[\#(docs)]}"#)])
        try await upstream.run { base in
            let search = OpenLibrarySearch(settings: Self.settings(base))
            let last = try await search.search(try SearchQuery(text: "the", limit: 20, offset: 9_980))
            let beyond = try await search.search(try SearchQuery(text: "the", limit: 20, offset: 10_000))
            #expect(last.nextOffset == 10_000 && beyond.nextOffset == nil)
            // The API's answer and the command line say so too (an outside walk: they offered 10,020).
            try await withAPI(configure: { $0.openLibraryURL = base }) { api in
                let answer = try await api.send(.get, "/api/v1/search?title=the&offset=10000&limit=20").object
                #expect(answer["total"] as? Int == 2_500_000 && answer["nextOffset"] == nil, "\(answer)")
            }
        }
    }

    /// Found by an outside walk: 13 MB answers to 12 searches at once took 550 MB, and an answer
    /// past the limit was fetched three times.
    @Test func anAnswerPastTheLimitIsRefusedOnce() async throws {
        let padding = String(repeating: "x", count: 5 << 20)
        let upstream = Scripted(["/search.json": .init(body: #"{"numFound":1,"docs":[{"key":"/works/OL1W","title":"\#(padding)"}]}"#)])
        try await upstream.run { base in
            await #expect(throws: SearchUnavailable.self) {
                try await OpenLibrarySearch(settings: Self.settings(base)).search(SearchQuery(text: "big"))
            }
            #expect(upstream.asked.withLock { $0.count } == 1, "asked again: \(upstream.asked.withLock { $0.count })")
        }
    }

    @Test func a429IsWaitedOutAsItAsks() async throws {
        let upstream = Scripted(["/search.json": .init(status: .tooManyRequests, headers: [.retryAfter: "120"], body: "{}")])
        try await upstream.run { base in
            let search = OpenLibrarySearch(settings: Self.settings(base))
            for _ in 0..<3 {
                do {
                    _ = try await search.search(SearchQuery(text: "x"))
                    Issue.record("a 429 was taken for an answer")
                } catch let trouble as SearchUnavailable {
                    #expect(trouble.retryAfter > 60 && trouble.retryAfter <= 121, "\(trouble.retryAfter)")
                }
            }
            #expect(upstream.asked.withLock { $0.count } == 1, "asked again before its Retry-After: \(upstream.asked.withLock { $0 })")
        }
    }

    @Test func anImportIsFiledUnderTheISBNAskedForAndMendsWhatOpenLibraryWrote() async throws {
        let edition = #"""
            {"title":"Upstream \u202Eedition","isbn_13":["9781491950357","9780134190440"],"publishers":["Pub\u202Elisher"],
             "description":"Line one\nline\u0000 two"}
            """#
        let upstream = Scripted(["/isbn/9780134190440.json": .init(body: edition)])
        try await upstream.run { base in
            try await withAPI(configure: { $0.openLibraryURL = base }) { api in
                let created = try await api.send(
                    .post, "/api/v1/books/import", json: #"{"isbn":"978-0-13-419044-0","authors":["Alan Donovan"]}"#)
                #expect(created.status == .created, "\(created.text)")
                let book = try created.object
                #expect(book["isbn"] as? String == "9780134190440", "\(book)")
                #expect(book["title"] as? String == "Upstream edition" && book["publisher"] as? String == "Publisher")
                #expect(book["description"] as? String == "Line one\nline two")
                // An ISBN Open Library lists wrongly is not the librarian's mistake.
                upstream.answers.withLock {
                    $0["/isbn/9783161484100.json"] = .init(body: #"{"title":"Checksum case","isbn_13":["9783161484101"]}"#)
                }
                let typo = try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"9783161484100","authors":["R"]}"#)
                let typoBook = try typo.object
                #expect(typo.status == .created && typoBook["isbn"] as? String == "9783161484100", "\(typo.text)")
            }
        }
    }
}
