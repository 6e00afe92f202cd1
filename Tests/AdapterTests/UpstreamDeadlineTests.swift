import Application
import Domain
import Foundation
import IPinfo
import OpenLibrary
import RESTCountries
import Testing
import Wording

/// Deadlines that mean it: an upstream that hangs, or sends its head and then stalls the body,
/// costs a caller the deadline and no more. The fake answers after 3 s; failing with a deadline
/// of 0.3 s (rather than its answer) proves the deadline held. No elapsed time is asserted: a
/// loaded machine is slow, not wrong.
@Suite("Outbound deadlines against the hanging fake")
struct UpstreamDeadlineTests {
    func settings(_ base: String, _ mode: String) -> OpenLibrarySettings {
        var settings = OpenLibrarySettings()
        settings.baseURL = base + "/" + mode
        settings.coversURL = "https://covers.example"
        settings.deadline = .milliseconds(300)
        settings.retryBase = .milliseconds(10)
        return settings
    }

    @Test(arguments: ["hang", "stall"])
    func aSearchGivesUpAtTheDeadlineWithoutRetryingPastIt(mode: String) async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            do {
                _ = try await OpenLibrarySearch(settings: settings(base, mode)).search(SearchQuery(text: "harry potter"))
                Issue.record("\(mode): the answer came after the deadline")
            } catch let error as SearchUnavailable {
                #expect(error.cause == .tooSlow, "\(mode): \(error.detail)")
            }
            // The one attempt used the whole deadline: no retry was started after it.
            #expect(fake.requests.withLock { $0.count } == 1)
        }
    }

    @Test(arguments: ["hang", "stall"])
    func anImportGivesUpAtTheDeadline(mode: String) async throws {
        try await FakeUpstreams().run { base in
            await #expect(throws: SearchUnavailable.self) {
                try await OpenLibraryLookup(settings: settings(base, mode)).book(isbn: try ISBN(parsing: "0140328726"))
            }
        }
    }

    @Test func aStalledCountryListIsUnavailableAtTheTimeout() async throws {
        try await FakeUpstreams().run { base in
            do {
                _ = try await RESTCountriesDirectory(baseURL: base + "/stall", store: MemoryCountryList(), timeout: .milliseconds(300))
                    .all()
                Issue.record("the stalled list arrived")
            } catch let error as CountryListUnavailable {
                #expect(error.english == Wording.english.text(.upstreamUnavailable(.restCountries)))
                #expect(!error.detail.isEmpty, "the technical cause is kept for the log")
            }
        }
    }

    @Test func aStalledGeolocationIsUnknownAtTheTimeout() async throws {
        try await FakeUpstreams().run { base in
            #expect(await IPinfoGeolocator(baseURL: base + "/stall", timeout: .milliseconds(300)).country(for: "8.8.8.8") == nil)
        }
    }

    @Test func theServerAnswersAHangingOpenLibraryWithA503OrTheStaleAnswer() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/switch"
                $0.coversURL = "https://covers.example"
                // Long enough for the healthy first search on a loaded machine; the hang outlasts it.
                $0.openLibraryDeadline = 1.5
                $0.searchFreshFor = 0  // every search asks Open Library; the cache answers only when it cannot
            }) { api in
                // A loaded machine may miss the short deadline on a healthy search too: asked again
                // until one answer is cached (the hang below is what the test is about).
                var healthy = try await api.send(.get, "/api/v1/search?q=harry%20potter", token: .none)
                for _ in 0..<10 where healthy.status != .ok {
                    healthy = try await api.send(.get, "/api/v1/search?q=harry%20potter", token: .none)
                }
                #expect(healthy.status == .ok, "\(healthy.text)")
                fake.switched.withLock { $0 = "hang" }
                let stale = try await api.send(.get, "/api/v1/search?q=harry%20potter", token: .none)
                #expect(try stale.status == .ok && stale.object["stale"] as? Bool == true, "\(stale.text)")
                let never = try await api.send(.get, "/api/v1/search?title=lord%20of%20the%20rings", token: .none)
                #expect(never.status == .serviceUnavailable && never.problemType == "urn:shelfmark:problem:search-unavailable")
                #expect(try never.object["detail"] as? String == Wording.english.text(.upstreamUnavailable(.openLibrary)))
                let imported = try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"]}"#)
                #expect(imported.status == .serviceUnavailable, "\(imported.text)")
            }
        }
    }

    @Test func theCLIImportSaysOneClearSentenceAtTheConfiguredDeadline() async throws {
        let db = TemporaryDatabase()
        try await FakeUpstreams().run { base in
            let down = try await shelfmark(
                ["book", "import", "--isbn", "0140328726", "--openlibrary-url", base + "/hang"], database: db.path,
                environment: ["SHELFMARK_OPENLIBRARY_DEADLINE": "0.3"])
            #expect(down.status != 0)
            // The first command on this library: its line also says the library is new.
            let sentence = Wording.english.text(.upstreamUnavailable(.openLibrary))
            #expect(down.stderr.hasPrefix("Error: \(sentence) (Created a new library at "))
            #expect(down.stderr.split(separator: "\n").count == 1)
        }
    }
}
