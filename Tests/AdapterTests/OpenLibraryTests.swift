import Application
import Foundation
import OpenLibrary
import Synchronization
import Testing
import Wording

@Suite("Open Library search adapter against a loopback fake")
struct OpenLibrarySearchTests {
    /// Tests that are not about the deadline give it a minute: a loaded CI machine is slow, not wrong.
    func adapter(_ base: String, mode: String = "ok", timeout: Int64 = 30_000, deadline: Duration = .seconds(60), breaker: Int = 5)
        -> OpenLibrarySearch
    {
        var settings = OpenLibrarySettings()
        settings.baseURL = base + "/" + mode
        settings.coversURL = "https://covers.example"
        settings.timeout = .milliseconds(timeout)
        settings.deadline = deadline
        settings.retryBase = .milliseconds(10)
        settings.breakerThreshold = breaker
        settings.contact = "tests@example.org"
        return OpenLibrarySearch(settings: settings)
    }

    @Test func parsesTheFullRecordingAndSendsTheFieldsItNeeds() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            let page = try await adapter(base).search(SearchQuery(title: "Lord of the Rings", sort: .rating, limit: 100, offset: 0))
            #expect(page.total == 473 && page.results.count == 100 && page.nextOffset == 100)
            let first = try #require(page.results.first)
            #expect(first.workKey == "OL27448W" && first.title == "The Lord of the Rings" && first.authors == ["J.R.R. Tolkien"])
            #expect(first.firstPublishYear == 1954 && first.editionCount == 157 && first.ratingCount == 64 && first.readingLogCount == 1356)
            #expect(first.isbns.count == 5 && first.ratingAverage.map { abs($0 - 4.515625) < 0.0001 } == true)
            #expect(first.covers?.medium == "https://covers.example/b/id/9255566-M.jpg")
            let sent = try #require(fake.requests.withLock { $0.first })
            for part in [
                "title=Lord%20of%20the%20Rings", "sort=rating", "limit=100", "offset=0", "fields=key,title,author_name",
                "ratings_average", "ratings_count", "readinglog_count", "already_read_count", "isbn",
            ] {
                #expect(sent.contains(part), "\(part) in \(sent)")
            }
            #expect(fake.userAgents.withLock { $0.first } == "Shelfmark/1.0 (tests@example.org)")
        }
    }

    @Test(
        "every recording parses",
        arguments: [
            (SearchQuery(title: "The Institute", author: "Stephen King"), 3, "OL20126932W"),
            (SearchQuery(text: "isbn:9780063021433"), 1, nil),
            (SearchQuery(text: "harry potter", limit: 2), 4063, "OL82563W"),
            (SearchQuery(text: "nothing at all matches"), 0, nil),
        ])
    func recordings(query: SearchQuery, total: Int, firstKey: String?) async throws {
        try await FakeUpstreams().run { base in
            let page = try await adapter(base).search(query)
            #expect(page.total == total)
            if let firstKey { #expect(page.results.first?.workKey == firstKey) }
        }
    }

    @Test(
        "sorts map to Open Library's",
        arguments: [
            (SearchSort.relevance, nil), (.title, "title"), (.rating, "rating"), (.hits, "readinglog"), (.editions, "editions"),
            (.new, "new"), (.old, "old"),
        ] as [(SearchSort, String?)])
    func sorts(sort: SearchSort, parameter: String?) async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            _ = try await adapter(base).search(SearchQuery(text: "harry potter", sort: sort, limit: 2, offset: 40))
            let sent = try #require(fake.requests.withLock { $0.first })
            #expect(sent.contains("sort=") == (parameter != nil))
            if let parameter { #expect(sent.contains("sort=\(parameter)&")) }
            #expect(sent.contains("offset=40"))
        }
    }

    @Test func missingFieldsAreTolerated() async throws {
        try await FakeUpstreams().run { base in
            let page = try await adapter(base, mode: "missing").search(SearchQuery(text: "x"))
            #expect(page.results.map(\.workKey) == ["OL1W"])
            #expect(page.results[0].covers == nil && page.results[0].authors.isEmpty)
        }
    }

    @Test func a422IsAValidationError() async throws {
        try await FakeUpstreams().run { base in
            await #expect(throws: InvalidInput.self) { try await adapter(base, mode: "422").search(SearchQuery(text: "a")) }
        }
    }

    @Test(arguments: ["error", "garbage", "truncated"])
    func failuresAreUnavailableAfterRetries(mode: String) async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            // A generous deadline: on a loaded machine a timed-out first try would be retried and counted.
            await #expect(throws: SearchUnavailable.self) {
                try await adapter(base, mode: mode, timeout: 10_000).search(SearchQuery(text: "harry potter"))
            }
            // 5xx are retried twice; garbage answers came from a live server and are not.
            #expect(fake.requests.withLock { $0.count } == (mode == "error" ? 3 : 1))
        }
    }

    @Test func anUnreachableOpenLibraryIsExplainedInWordsNotErrno() async throws {
        // A port nothing listens on: the connection is refused.
        var settings = OpenLibrarySettings()
        settings.baseURL = "http://127.0.0.1:9"
        settings.retryBase = .milliseconds(10)
        settings.maxRetries = 0
        settings.deadline = .seconds(1)
        do {
            _ = try await OpenLibrarySearch(settings: settings).search(SearchQuery(text: "dune"))
            Issue.record("searched a closed port")
        } catch let error as SearchUnavailable {
            // The shared client retries a refused connection until the deadline: either cause is right.
            #expect([.unreachable, .tooSlow].contains(error.cause) && !error.detail.isEmpty, "the technical cause is kept for the log")
            #expect(error.english == Wording.english.text(.upstreamUnavailable(.openLibrary)))
            for leak in ["errno", "Error", "(", "127.0.0.1", "Socket", "refused"] where error.english.contains(leak) {
                Issue.record("'\(leak)' in \(error.english)")
            }
        }
    }

    @Test func slowAnswersTimeOut() async throws {
        try await FakeUpstreams().run { base in
            await #expect(throws: SearchUnavailable.self) {
                try await adapter(base, mode: "hang", timeout: 200).search(SearchQuery(text: "harry potter"))
            }
            // The fake answers well after 3 s: failing (not its answer) proves the timeout fired.
            // No wall-clock bound here: a loaded CI machine is slow, not wrong.
        }
    }

    @Test func theBreakerStopsHammeringADeadUpstream() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            let search = adapter(base, mode: "error", breaker: 2)
            for _ in 1...4 { await #expect(throws: SearchUnavailable.self) { try await search.search(SearchQuery(text: "harry potter")) } }
            #expect(fake.requests.withLock { $0.count } == 6)  // 2 failed searches × 3 attempts, then the breaker is open
        }
    }
}

@Suite("Search over HTTP and the CLI, through the composition, against the fake")
struct SearchPathTests {
    @Test func httpSearchAndThe503WhenNothingIsCached() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/ok"; $0.coversURL = "https://covers.example"
            }) { api in
                let page = try await api.send(.get, "/api/v1/search?title=lord%20of%20the%20rings&sort=rating&limit=100", token: .none)
                #expect(page.status == .ok)
                let body = try page.object
                #expect(body["total"] as? Int == 473 && body["stale"] as? Bool == false && body["nextOffset"] as? Int == 100)
                #expect(
                    ((body["items"] as? [[String: Any]])?.first?["covers"] as? [String: Any])?["small"] as? String
                        == "https://covers.example/b/id/9255566-S.jpg")
                #expect(try await api.send(.get, "/api/v1/search", token: .none).status == .badRequest)
            }
            try await withAPI(configure: { $0.openLibraryURL = base + "/error" }) { api in
                let down = try await api.send(.get, "/api/v1/search?q=harry%20potter", token: .none)
                #expect(down.status == .serviceUnavailable && down.problemType == "urn:shelfmark:problem:search-unavailable")
                #expect(down.text.contains("own catalogue still works") && !down.text.contains("HTTP 500"))
            }
            try await withAPI(configure: { $0.openLibraryURL = base + "/422" }) { api in
                let status = try await api.send(.get, "/api/v1/search?q=a", token: .none).status
                #expect(status == .badRequest)
            }
        }
    }

    @Test func cliSearchShowsTitleAuthorsYearRatingAndCover() async throws {
        let fake = FakeUpstreams()
        let db = TemporaryDatabase()
        let base = try await fake.run { base in
            let result = try await shelfmark(
                ["search", "lord of the rings", "--sort", "rating", "--limit", "3", "--openlibrary-url", base + "/ok"], database: db.path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stdout.contains("The Lord of the Rings") && result.stdout.contains("J.R.R. Tolkien")
                    && result.stdout.contains("1954"))
            #expect(result.stdout.contains("4.5 (64)") && result.stdout.contains("https://covers.openlibrary.org/b/id/9255566-M.jpg"))
            // The recording holds 100 docs whatever the limit: 3 are shown, and the next page starts at 3.
            #expect(result.stdout.contains("1-3 of 473") && result.stdout.contains("next page: --offset 3"))
            let json = try await shelfmark(
                ["--json", "search", "--query", "harry potter", "--openlibrary-url", base + "/ok"], database: db.path)
            #expect(json.stdout.contains("\"workKey\" : \"OL82563W\""))
            return base
        }
        // Open Library down: the cached answer is shown, marked stale.
        let stale = try await shelfmark(
            ["search", "lord of the rings", "--sort", "rating", "--limit", "3", "--openlibrary-url", base + "/error"],
            database: db.path, environment: ["SHELFMARK_SEARCH_TTL": "0"])
        #expect(stale.status == 0 && stale.stdout.contains("from the cache"))
        let bad = try await shelfmark(["search", "x", "--sort", "best"], database: db.path)
        #expect(bad.status != 0 && bad.stderr.contains("--sort: must be one of"))
    }
}
