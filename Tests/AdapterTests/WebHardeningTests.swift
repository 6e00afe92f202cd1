import Application
import Composition
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Web

/// What an outside walk of the pages found, each with the test that would have caught it.
@Suite("Web: found by walking the pages as an attacker and a reader")
struct WebHardeningTests {
    /// A POST the pages answered went on to the API, which read its body a second time: a debug
    /// build stopped on Hummingbird's assertion, so one anonymous form took the server down.
    @Test func aFormSentToNoPageOrToNothingIsAnsweredOnceByThePages() async throws {
        try await withAPI { api in
            let visitor = Browser(api)
            try await visitor.get("/login")
            let lost = try await visitor.post("/no/such/page", [("x", "1")], headers: [.accept: "*/*"])
            #expect(lost.status == .notFound && lost.headers[.contentType] == "text/html; charset=utf-8")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/loans")
            let renew = try await ada.post("/loans/\(UUID())/renew", [], headers: [.accept: "*/*"])
            #expect(renew.status == .seeOther || renew.status == .notFound)
            #expect(try await api.send(.get, "/api/v1/health").status == .ok)
        }
    }

    @Test func aBookThatIsNotThereIsAPageForEveryClientAndOnlyUnknownPathsAreTheAPIs() async throws {
        try await withAPI { api in
            let gone = try await api.client.execute(uri: "/books/\(UUID())", method: .get, headers: [.accept: "*/*"])
            #expect(gone.status == .notFound && gone.headers[.contentType] == "text/html; charset=utf-8")
            let unknown = try await api.client.execute(uri: "/no/such/page", method: .get, headers: [.accept: "*/*"])
            #expect(unknown.headers[.contentType] == "application/problem+json")
        }
    }

    @Test func refusalsNameFieldsAsTheFormsLabelsDo() async throws {
        try await withAPI { api in
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/books")
            let nothing = try await ada.follow(try await ada.post("/loans", [("back", "/books")]))
            #expect(nothing.shows("Choose at least one book first."), "\(nothing.text)")
            // The desk's lend, with a member and no book: the same words, by the books' list
            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/desk")
            let lend = try await librarian.post("/desk/lend", [("member", "ada@example.org")])
            #expect(lend.shows("Choose at least one book first.") && !lend.shows("Books is required"), "\(lend.text)")
            // Neither a member nor a book: both said at once (found by an outside walk)
            let neither = try await librarian.post("/desk/lend", [("member", "")])
            #expect(neither.shows("Member") && neither.shows("Choose at least one book first."), "\(neither.text)")
            let signup = Browser(api)
            try await signup.get("/signup")
            let empty = try await signup.post("/signup", [("email", ""), ("password", "Str0ng!pass"), ("country", "FR")])
            #expect(empty.shows("Email address is required.") && !empty.shows(">Is required."))
        }
    }

    @Test func aPageNumberTypedWrongShowsAPageAndTooManyWordsAreSaidAboveTheForm() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Dune")
            let browser = Browser(api)
            for offset in ["-1", "999999999999", "abc"] {
                #expect(try await browser.get("/books?offset=\(offset)").status == .ok, "offset=\(offset)")
            }
            let long = try await browser.get("/books?q=" + String(repeating: "a", count: 300))
            #expect(long.status == .badRequest && long.shows(#"id="error-summary""#) && long.shows(#"id="catalogue-filter""#))
        }
    }

    /// Found by an outside walk: a search for `%00` or `%1b` put the raw byte in the search box's value.
    @Test func controlCharactersTypedInAFormAreLeftOutOfThePage() async throws {
        try await withAPI { api in
            let browser = Browser(api)
            for path in ["/books?q=%00", "/books?q=a%01%1b%7fb", "/audit/history?book=%00", "/books?q=a%C2%85%C2%9Bb"] {
                let page = try await browser.get(path)
                let scalars = String(buffer: page.body).unicodeScalars
                #expect(
                    !scalars.contains { ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || (0x7F...0x9F).contains($0.value) },
                    "\(path)")
            }
            #expect(try await browser.get("/books?q=a%01%1b%7fb").shows(#"value="ab""#))
        }
    }

    @Test func openLibrarysNumbersAreShownOnlyWhenTheyMakeSenseAndCountedInWords() {
        func work(rating: Double?, count: Int?, readers: Int?) -> WorkResult {
            WorkResult(
                workKey: "OL1W", title: "T", authors: ["A"], firstPublishYear: -500, editionCount: nil, isbns: [], coverID: nil,
                ratingAverage: rating, ratingCount: count, readingLogCount: readers, covers: nil)
        }
        let one = ResultCell(work(rating: 4, count: 1, readers: 1), bookmarked: false)
        #expect(one.rating == "4.0 / 5 (1 rating)" && one.readers == "1 reader" && one.year == "-500")
        let odd = ResultCell(work(rating: -3, count: -3, readers: -1), bookmarked: false)
        #expect(odd.rating == nil && odd.readers == nil)
    }

    @Test func sharedLinksUseThePublicAddressWhenOneIsSet() async throws {
        try await withAPI(configure: { $0.publicURL = "https://library.example.org" }) { api in
            let id = try await api.addBook("Tom & Jerry #1?&body=http://evil.example/")
            let page = try await Browser(api).get("/books/\(id)", headers: [.init("Host")!: "evil.example"])
            #expect(page.shows(#"og:url" content="https://library.example.org/books/\#(id)""#))
            #expect(!page.shows("evil.example/books"))
            #expect(page.shows("mailto:?subject=Tom%20%26%20Jerry%20%231%3F%26body%3Dhttp%3A%2F%2Fevil.example%2F&amp;body="))
        }
    }

    /// Found by an outside test: the confirmation naming a 500-character title in Chinese made a
    /// 4.6 KB cookie, which browsers drop, so the member never saw it.
    @Test func aConfirmationCookieStaysWithinWhatBrowsersKeep() throws {
        for message in [String(repeating: "文", count: 1_000), String(repeating: "😀", count: 600), String(repeating: "é", count: 999)] {
            let response = Redirect.see("/loans", flash: "You borrowed " + message, refused: true)
            let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix(Cookies.flash + "=") })
            let pair = try #require(cookie.split(separator: ";").first)
            #expect(pair.utf8.count <= 4_096, "\(pair.utf8.count) bytes")
            let value = try #require(String(pair.dropFirst(Cookies.flash.count + 1)).removingPercentEncoding)
            #expect(value.hasPrefix("!You borrowed " + String(message.prefix(3))) && value.hasSuffix("…"))
        }
        let short = "You borrowed “Dune”."
        #expect(Cookies.fitting(short, named: Cookies.flash) == short)
    }
}
