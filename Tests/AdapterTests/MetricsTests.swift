import Application
import Composition
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Monitoring
import PostgresStore
import PostgresTestSupport
import RegexBuilder
import SQLiteStore
import Security
import Testing

/// `GET /metrics` through the real server on loopback (issue 21): what it counts, who may read it,
/// and that the text is Prometheus's.
@Suite("Metrics")
struct MetricsTests {
    @Test func aScrapeFromThisMachineCountsRoutesTimesTheLogAndTheLoans() async throws {
        let clock = ManualClock()
        try await withAPI(mode: .live, clock: clock) { api in
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"]}"#).object["id"] as? String)
            let member = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(book)"]}"#, token: member).status == .created)
            #expect(try await api.send(.get, "/api/v1/books/\(book)").status == .ok)
            #expect(try await api.send(.get, "/api/v1/books/\(UUID())").status == .notFound)
            #expect(try await api.client.execute(uri: "/books/\(book)", method: .get, headers: [.accept: "text/html"]).status == .ok)

            let scrape = try await api.client.execute(uri: "/metrics", method: .get)
            #expect(scrape.status == .ok)
            #expect(scrape.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let metrics = try Exposition(scrape.text)
            let route = "/api/v1/books/{id}"
            #expect(metrics.value("shelfmark_http_requests_total", ["route": route, "method": "GET", "status": "200"]) == 1)
            #expect(metrics.value("shelfmark_http_requests_total", ["route": route, "method": "GET", "status": "404"]) == 1)
            #expect(metrics.value("shelfmark_http_requests_total", ["route": "/api/v1/loans", "method": "POST", "status": "201"]) == 1)
            #expect(metrics.value("shelfmark_http_requests_total", ["route": "/books/{id}", "method": "GET", "status": "200"]) == 1)
            #expect(!scrape.text.contains(book), "a path's id never becomes a label")
            let timed = ["route": route, "method": "GET", "status": "200"]
            #expect(metrics.value("shelfmark_http_request_duration_seconds_count", timed) == 1)
            #expect(metrics.value("shelfmark_http_request_duration_seconds_bucket", timed.merging(["le": "+Inf"]) { $1 }) == 1)
            #expect(metrics.type("shelfmark_http_request_duration_seconds") == "histogram")
            // The book, the member's signup and the loan: three appends of at least one event each.
            #expect(metrics.value("shelfmark_appends_total") == 3)
            #expect((metrics.value("shelfmark_events_appended_total") ?? 0) >= 3)
            #expect((metrics.value("shelfmark_group_commit_batch_size_count") ?? 0) >= 3)
            #expect(metrics.value("shelfmark_append_conflicts_total") == 0)
            #expect(metrics.value("shelfmark_loans_active") == 1)
            #expect(metrics.value("shelfmark_loans_overdue") == 0)
            #expect(metrics.value("shelfmark_projection_lag_events") == 0)
            #expect(metrics.value("shelfmark_openlibrary_breaker_open", ["client": "search"]) == 0)
            #expect(metrics.value("shelfmark_search_cache_lookups_total", ["result": "hit"]) == 0)

            clock.advance(by: 365 * 24 * 3600)
            let later = try Exposition(try await api.client.execute(uri: "/metrics", method: .get).text)
            #expect(later.value("shelfmark_loans_overdue") == 1)
            #expect(later.value("shelfmark_http_requests_total", ["route": "/metrics", "method": "GET", "status": "200"]) == 1)
        }
    }

    @Test func openLibraryCallsFailuresTheBreakerAndTheCache() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(mode: .live, configure: { $0.openLibraryURL = base + "/ok" }) { api in
                for _ in 1...2 { #expect(try await api.send(.get, "/api/v1/search?title=dune", token: .none).status == .ok) }
                let metrics = try Exposition(try await api.client.execute(uri: "/metrics", method: .get).text)
                #expect(metrics.value("shelfmark_openlibrary_calls_total", ["client": "search", "outcome": "ok"]) == 1)
                #expect(metrics.value("shelfmark_search_cache_lookups_total", ["result": "miss"]) == 1)
                #expect(metrics.value("shelfmark_search_cache_lookups_total", ["result": "hit"]) == 1)
            }
            try await withAPI(mode: .live, configure: { $0.openLibraryURL = base + "/error" }) { api in
                // Five failed calls (each with its retries) open the breaker; the sixth is not sent.
                for _ in 1...6 {
                    #expect(try await api.send(.get, "/api/v1/search?q=dune", token: .none).status == .serviceUnavailable)
                }
                let metrics = try Exposition(try await api.client.execute(uri: "/metrics", method: .get).text)
                #expect(metrics.value("shelfmark_openlibrary_calls_total", ["client": "search", "outcome": "failed"]) == 5)
                #expect(metrics.value("shelfmark_openlibrary_calls_total", ["client": "search", "outcome": "breaker_open"]) == 1)
                #expect(metrics.value("shelfmark_openlibrary_breaker_open", ["client": "search"]) == 1)
                #expect(metrics.value("shelfmark_openlibrary_breaker_open", ["client": "lookup"]) == 0)
            }
        }
    }

    @Test func aConflictingAppendIsCountedWhereItIsRaised() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-metrics-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let monitor = Monitor()
        let database = try LibraryDatabase(
            path: folder.appendingPathComponent("library.sqlite").path, durability: .off, cipher: SwiftCryptoPersonalCipher(),
            metrics: monitor.factory)
        defer { try? database.close() }
        try await Self.appendTwiceAndLookUp(database.eventStore, database.searchCache(), monitor)
    }

    @Test(
        "PostgreSQL counts appends, conflicts, batches and search cache look-ups as SQLite does",
        .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
    func aConflictingAppendIsCountedOnPostgreSQL() async throws {
        let monitor = Monitor()
        let library = try await PostgresLibrary.open(
            PostgresAddress(try await PostgresTestServer.freshDatabase()), cipher: SwiftCryptoPersonalCipher(), maximumConnections: 2,
            metrics: monitor.factory)
        try await Self.appendTwiceAndLookUp(library.eventStore, library.searchCache(), monitor)
        await library.close()
    }

    /// One book added, the same append again (a conflict), one search cache miss and one hit:
    /// what `/metrics` then says.
    static func appendTwiceAndLookUp(_ store: any EventStore, _ cache: any SearchCache, _ monitor: Monitor) async throws {
        let book = BookID(UUID())
        let added = PendingEvent(
            .book(.added(BookAdded(book: book, details: BookDetails(title: "Dune", authors: ["Frank Herbert"]), copies: 1))),
            EventMetadata(eventID: UUID(), recordedAt: Date(), actor: "test", correlationID: UUID()))
        let append = [StreamAppend(StreamName("book-\(book)"), expected: .noStream, events: [added])]
        try await store.append(append)
        await #expect(throws: AppendConflict.self) { try await store.append(append) }
        #expect(try await cache.lookup("dune") == nil)
        try await cache.store("dune", SearchPage(results: [], total: 0, offset: 0, limit: 20), at: Date())
        #expect(try await cache.lookup("dune") != nil)
        let metrics = try Exposition(String(decoding: monitor.exposition(), as: UTF8.self))
        #expect(metrics.value("shelfmark_append_conflicts_total") == 1)
        #expect(metrics.value("shelfmark_appends_total") == 1 && metrics.value("shelfmark_events_appended_total") == 1)
        #expect(metrics.value("shelfmark_group_commit_batch_size_count") == 2)
        #expect(metrics.value("shelfmark_search_cache_lookups_total", ["result": "miss"]) == 1)
        #expect(metrics.value("shelfmark_search_cache_lookups_total", ["result": "hit"]) == 1)
    }

    @Test func aMillionPathsAreOneSeries() async throws {
        try await withAPI(mode: .live) { api in
            for number in 0..<150 {
                let path = number.isMultiple(of: 2) ? "/api/v1/no-such-\(number)" : "/no-such-\(number)"
                #expect(try await api.client.execute(uri: path, method: .get).status == .notFound)
            }
            let text = try await api.client.execute(uri: "/metrics", method: .get).text
            let metrics = try Exposition(text)
            #expect(!text.contains("no-such"))
            #expect(metrics.value("shelfmark_http_requests_total", ["route": "unmatched", "method": "GET", "status": "404"]) == 150)
            #expect(metrics.samples.filter { $0.name == "shelfmark_http_requests_total" }.count <= 2, "\(text)")
        }
    }

    @Test func aProxiedRequestIsAnsweredAsAnUnknownPath() async throws {
        for trusted in [Set<String>(), ["127.0.0.1"]] {
            try await withAPI(mode: .live, configure: { $0.trustedProxies = trusted }) { api in
                let unknown = try await api.client.execute(uri: "/no-such-page", method: .get)
                for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
                    let value = header == "Forwarded" ? "for=203.0.113.9" : "203.0.113.9"
                    let proxied = try await api.client.execute(
                        uri: "/metrics", method: .get, headers: [HTTPField.Name(header)!: value])
                    #expect(proxied.status == .notFound, "\(header), trusted \(trusted)")
                    #expect(proxied.headers[.contentType] == unknown.headers[.contentType])
                    #expect(!proxied.text.contains("shelfmark_"))
                }
            }
        }
    }

    @Test func theTokenOpensItToAnyClientAndAWrongOneToNone() async throws {
        let token = "metrics-\(UUID().uuidString)"
        try await withAPI(mode: .live, configure: { $0.metricsToken = token }) { api in
            let proxied: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"]
            var right = proxied
            right[.authorization] = "Bearer \(token)"
            let answered = try await api.client.execute(uri: "/metrics", method: .get, headers: right)
            #expect(answered.status == .ok)
            #expect(try Exposition(answered.text).type("shelfmark_appends_total") == "counter")
            for wrong in ["Bearer \(token)x", "Bearer \(token.dropLast())", "Bearer ", "Basic \(token)"] {
                let refused = try await api.client.execute(uri: "/metrics", method: .get, headers: [.authorization: wrong])
                #expect(refused.status != .ok, "\(wrong)")
                #expect(!refused.text.contains("shelfmark_"))
            }
            #expect(try await api.client.execute(uri: "/metrics", method: .get, headers: proxied).status == .notFound)
            #expect(try await api.client.execute(uri: "/metrics", method: .get).status == .ok, "this machine needs no token")
            #expect(try await api.client.execute(uri: "/metrics", method: .post, headers: right).status != .ok)
        }
    }

    @Test func onlyLoopbackPeersAreThisMachine() {
        let access = MetricsAccess(token: nil)
        for peer in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            #expect(access.allows(peer: peer, headers: [:]), "\(peer)")
        }
        for peer in ["203.0.113.5", "10.0.0.1", "::ffff:10.0.0.1", "fe80::1", "::", "0.0.0.0", "localhost", ""] {
            #expect(!access.allows(peer: peer, headers: [:]), "\(peer)")
        }
        #expect(!access.allows(peer: nil, headers: [:]))
        #expect(!access.allows(peer: "203.0.113.5", headers: [.authorization: "Bearer anything-at-all-here"]), "no token set: none works")
        let withToken = MetricsAccess(token: "0123456789abcdef")
        #expect(withToken.allows(peer: "203.0.113.5", headers: [.authorization: "bearer 0123456789abcdef"]))
        #expect(!withToken.allows(peer: "127.0.0.1", headers: [.authorization: "Bearer 0123456789abcdeF"]))
    }

    @Test func theTokenSettingIsCheckedAndNeverSaidBack() throws {
        let taken = try ShelfmarkConfiguration.resolve(
            database: "/tmp/x.sqlite", environment: ["SHELFMARK_METRICS_TOKEN": "a-long-enough-token"])
        #expect(taken.metricsToken == "a-long-enough-token")
        #expect(
            try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_METRICS_TOKEN": ""]).metricsToken == nil)
        for bad in ["short-token", "a token with spaces", "control-\u{7}-character-token"] {
            #expect {
                _ = try ShelfmarkConfiguration.resolve(database: "/tmp/x.sqlite", environment: ["SHELFMARK_METRICS_TOKEN": bad])
            } throws: { error in
                let text = (error as? ConfigurationError)?.english ?? ""
                return text.hasPrefix("SHELFMARK_METRICS_TOKEN ") && !text.contains(bad)
            }
        }
    }

    @Test func serveRefusesAShortTokenInOneLine() async throws {
        let database = TemporaryDatabase()
        let result = try await shelfmark(
            ["serve", "--port", "0"], database: database.path, environment: ["SHELFMARK_METRICS_TOKEN": "tiny"])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: SHELFMARK_METRICS_TOKEN "), "\(result.stderr)")
    }
}

/// Prometheus's text exposition format, read strictly: every line a `# HELP`/`# TYPE` comment or a
/// sample `name{label="value",...} number`; anything else fails the reading.
struct Exposition {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    struct Unreadable: Error, CustomStringConvertible {
        let line: String
        var description: String { "not a line of Prometheus's text format: \(line)" }
    }

    private(set) var samples: [Sample] = []
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        let name = /[a-zA-Z_:][a-zA-Z0-9_:]*/
        let comment = Regex {
            "# TYPE "
            Capture(name)
            " "
            Capture(/counter|gauge|histogram|summary|untyped/)
        }
        let help = Regex {
            "# HELP "
            name
            /( .*)?/
        }
        let sample = Regex {
            Capture(name)
            Optionally {
                "{"
                Capture(/[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*,?/)
                "}"
            }
            " "
            Capture(/[-+]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|Inf|NaN)/)
            Optionally(#/ -?[0-9]+/#)
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if let match = line.wholeMatch(of: comment) {
                types[String(match.1)] = String(match.2)
            } else if line.wholeMatch(of: help) != nil {
                continue
            } else if let match = line.wholeMatch(of: sample) {
                guard let value = Double(match.3.replacingOccurrences(of: "Inf", with: "inf")) else { throw Unreadable(line: String(line)) }
                samples.append(Sample(name: String(match.1), labels: Self.labels(match.2.map(String.init) ?? ""), value: value))
            } else {
                throw Unreadable(line: String(line))
            }
        }
    }

    private static func labels(_ text: String) -> [String: String] {
        var labels: [String: String] = [:]
        for match in text.matches(of: /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/) { labels[String(match.1)] = String(match.2) }
        return labels
    }

    /// The value of the one sample with this name and exactly these labels, or nil.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The family's declared type.
    func type(_ name: String) -> String? { types[name] }
}
