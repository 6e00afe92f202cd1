import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The Open Library search page (the search app's home), against the loopback fake of Open
/// Library serving the recordings: results, sorts, the next page, bookmarks, and what the page
/// says when Open Library cannot be reached.
@Suite("Web: the Open Library search page")
struct WebSearchPagesTests {
    @Test func resultsShowCoversTheCountAndTheNextPageInTheSortChosen() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/ok"; $0.coversURL = "https://covers.example"
            }) { api in
                let visitor = Browser(api)
                let empty = try await visitor.get("/search")
                #expect(empty.status == .ok && empty.shows(#"<label for="q">"#) && !empty.shows(#"id="result-count""#))
                let page = try await visitor.get("/search?q=lord+of+the+rings&sort=rating")
                #expect(page.status == .ok && page.shows(#"<option value="rating" selected>"#))
                #expect(fake.requests.withLock { $0.last ?? "" }.contains("sort=rating"), "the sort goes to Open Library")
                #expect(page.shows(#"<p id="result-count" class="count" aria-live="polite">473 books found · showing 1–20</p>"#))
                #expect(page.text.components(separatedBy: #"<li class="result""#).count - 1 == 20)
                #expect(
                    page.shows(#"<img class="cover" src="https://covers.example/b/id/9255566-M.jpg" alt="Cover of The Lord of the Rings""#))
                let next = #"href="/search?q=lord%20of%20the%20rings&amp;sort=rating&amp;offset=20""#
                #expect(page.shows(#"<a id="load-more""#) && page.shows(next), "\(page.text)")
                #expect(!page.shows(#"class="bookmark""#), "a visitor has no reading list")

                let second = try await visitor.get("/search?q=lord%20of%20the%20rings&sort=rating&offset=20")
                #expect(second.status == .ok && second.shows("showing 21–40"))
                #expect(fake.requests.withLock { $0.last ?? "" }.contains("offset=20"), "the page asks Open Library from the offset")
                #expect(second.shows("offset=40"))
            }
        }
    }

    @Test func aMemberBookmarksAResultAndSeesItMarked() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
                let page = try await ada.get("/search?q=lord%20of%20the%20rings")
                let form = #"<input type="hidden" name="key" value="OL27448W">"#
                #expect(page.shows(#"<form class="bookmark" method="post" action="/bookmarks">"#) && page.shows(form))
                let back = "/search?q=lord%20of%20the%20rings"
                let marked = try await ada.post("/bookmarks", [("key", "OL27448W"), ("back", back)])
                #expect(marked.status == .seeOther && marked.headers[.location] == back)
                let after = try await ada.follow(marked)
                #expect(after.shows(#"<p class="bookmarked">On your reading list</p>"#) && !after.shows(form))
                #expect(try await ada.get("/bookmarks").shows(#"data-key="OL27448W""#))
            }
        }
    }

    @Test func openLibraryDownIsSaidPlainlyAndAnOlderAnswerIsMarkedAsSuch() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/switch"
                $0.searchFreshFor = 0  // every search asks Open Library; the cache answers only when it cannot
            }) { api in
                let visitor = Browser(api)
                let fresh = try await visitor.get("/search?q=harry%20potter")
                #expect(fresh.shows(#"<li class="result""#) && !fresh.shows(#"id="stale-results""#))
                fake.switched.withLock { $0 = "error" }
                let stale = try await visitor.get("/search?q=harry%20potter")
                #expect(stale.status == .ok && stale.shows(#"<li class="result""#))
                #expect(stale.shows(#"<p id="stale-results" class="flash" role="status">Open Library cannot be reached just now"#))
                let never = try await visitor.get("/search?q=lord%20of%20the%20rings")
                #expect(
                    never.shows(#"<p id="search-unavailable" class="flash refused" role="alert">Open Library cannot be reached just now"#))
                #expect(!never.shows(#"<li class="result""#) && !never.shows(#"id="result-count""#) && !never.shows("HTTP 500"))
                #expect(never.shows(#"value="lord of the rings""#), "the words typed stay in the field")
            }
        }
    }

    @Test func theWordsSearchedAreEscapedAndWordsItCannotTakeAreSaidAboveTheForm() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                let hostile = try await Browser(api).get("/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
                #expect(hostile.shows(#"value="&lt;script&gt;alert(1)&lt;/script&gt;""#) && !hostile.shows("<script>alert(1)"))
                let long = try await Browser(api).get("/search?q=" + String(repeating: "a", count: 300))
                #expect(long.status == .badRequest && long.shows(#"id="error-summary""#) && long.shows(#"id="search""#))
                // Open Library's title is the field `q` here: the refusal names the field's label and links to it.
                #expect(long.shows(##"<a href="#q">Title "##) && long.shows(#"aria-describedby="q-error""#), "\(long.text)")
            }
        }
    }
}
