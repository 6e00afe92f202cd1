import Composition
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The web pages' frame: cookies, form tokens, headers, redirects and escaping, through the real
/// application (the same composition as `serve`) and its SQLite database.
@Suite("Web: the site's frame")
struct WebSiteTests {
    @Test func everyPageCarriesTheSecurityHeadersAndPrivatePagesAreNotCached() async throws {
        try await withAPI { api in
            for path in ["/", "/books", "/login", "/signup", "/search", "/nowhere"] {
                let page = try await Browser(api).get(path)
                let policy = try #require(page.headers[.contentSecurityPolicy], "\(path)")
                #expect(policy.contains("script-src 'self'") && policy.contains("style-src 'self'") && !policy.contains("unsafe-inline"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(page.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            }
            let member = Browser(api, session: try await api.signUpMember("ada@example.org"))
            #expect(try await member.get("/books").headers[.cacheControl] == "no-store")
        }
    }

    @Test func signingUpSetsASessionCookieThatLastsThirtyDaysAndLandsOnHome() async throws {
        try await withAPI { api in
            let browser = Browser(api)
            try await browser.get("/signup")
            let weak = try await browser.post("/signup", [("email", "ada@example.org"), ("password", "short"), ("country", "FR")])
            #expect(weak.status == .badRequest)
            #expect(weak.shows(#"id="error-summary""#) && weak.shows(#"aria-describedby="password-rules password-error""#))
            #expect(weak.shows(#"value="ada@example.org""#), "the address typed is kept")
            let badEmail = try await browser.post(
                "/signup", [("email", "ada.example.org"), ("password", "Str0ng!pass"), ("country", "FR")])
            #expect(badEmail.status == .badRequest && badEmail.shows(#"<p class="field-error" id="email-error">"#), "\(badEmail.text)")
            #expect(badEmail.shows(#"aria-describedby="email-error""#) && badEmail.shows(##"<a href="#email">Email address"##))
            let done = try await browser.post(
                "/signup", [("email", "ada@example.org"), ("password", "Str0ng!pass"), ("displayName", "Ada"), ("country", "FR")])
            #expect(done.status == .seeOther)
            #expect(done.headers[.location] == "/search")
            let cookie = try #require(done.headers[values: .setCookie].first { $0.hasPrefix("shelfmark_session=") })
            for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] { #expect(cookie.contains(flag), "\(cookie)") }
            #expect(!cookie.contains("Secure"), "plain HTTP on loopback: a Secure cookie would never be sent back")
            let home = try await browser.follow(done)
            #expect(home.shows("Welcome to the library, Ada.") && home.shows(#"id="logout""#))
            // Back to the login or signup form after logging in lands on Home instead.
            #expect(try await browser.get("/login").headers[.location] == "/search")
            #expect(try await browser.get("/signup").headers[.location] == "/search")
            #expect(try await browser.get("/").headers[.location] == "/search", "the landing page of a member is Home")
        }
    }

    @Test func cookiesAreSecureWhenConfiguredSo() async throws {
        try await withAPI(configure: { $0.secureCookies = true }) { api in
            let page = try await Browser(api).get("/login")
            #expect(page.headers[values: .setCookie].allSatisfy { $0.contains("; Secure") })
        }
    }

    @Test func cookiesAreSecureBehindAnHTTPSProxyTrustedAndOnlyThen() async throws {
        let https: HTTPFields = [.init("X-Forwarded-Proto")!: "https"]
        try await withAPI(mode: .live, configure: { $0.trustedProxies = ["127.0.0.1"] }) { api in
            let behindProxy = try await Browser(api).get("/login", headers: https)
            let set = behindProxy.headers[values: .setCookie]
            #expect(!set.isEmpty && set.allSatisfy { $0.contains("; Secure") }, "\(set)")
            _ = try await api.signUpMember("ada@example.org")
            let browser = Browser(api)
            try await browser.get("/login", headers: https)
            let login = try await browser.post("/login", [("email", "ada@example.org"), ("password", "Member-Pass1")], headers: https)
            #expect(login.headers[values: .setCookie].contains { $0.hasPrefix("shelfmark_session=") && $0.contains("; Secure") })
            let plain = try await Browser(api).get("/login", headers: [.init("X-Forwarded-Proto")!: "http"])
            #expect(plain.headers[values: .setCookie].allSatisfy { !$0.contains("Secure") })
        }
        // The same header from a peer that is no trusted proxy is anyone's word: no Secure.
        try await withAPI(mode: .live, configure: { $0.trustedProxies = ["10.0.0.1"] }) { api in
            let set = try await Browser(api).get("/login", headers: https).headers[values: .setCookie]
            #expect(!set.isEmpty && set.allSatisfy { !$0.contains("Secure") }, "\(set)")
        }
    }

    @Test func theSignupFormPreselectsTheCountryOfTheBrowsersLanguage() async throws {
        try await withAPI { api in
            let page = try await Browser(api).get("/signup", headers: [.acceptLanguage: "fr-CA,fr;q=0.8,en;q=0.5"])
            #expect(page.shows(#"<option value="CA" selected>"#))
            #expect(!page.shows(#"<option value="FR" selected>"#))
        }
    }

    @Test func aFormWithoutThisBrowsersTokenIsRefused() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let eve = Browser(api, session: try await api.signUpMember("eve@example.org"))
            try await eve.get("/books")
            let evesToken = try #require(await eve.csrf)
            #expect(try await ada.post("/loans", [("book", dune)], csrf: "").status == .forbidden)
            #expect(try await ada.post("/loans", [("book", dune)], csrf: evesToken).status == .forbidden)
            #expect(try await ada.post("/loans", [("book", dune)], csrf: "forged").status == .forbidden)
            try await ada.get("/books")
            // A form another site sent, as the browser says it did, is refused even with this browser's
            // token: a visitor cookie planted by a sibling site (found by an outside walk) gives its token
            let fetchSite = try #require(HTTPField.Name("Sec-Fetch-Site"))
            for site in ["cross-site", "same-site"] {
                #expect(try await ada.post("/loans", [("book", dune)], headers: [fetchSite: site]).status == .forbidden, "\(site)")
            }
            #expect(try await ada.post("/loans", [("book", dune)], headers: [fetchSite: "same-origin"]).status == .seeOther)
            #expect(try await ada.post("/loans", [("book", dune)]).status == .seeOther)
            let wrongType = try await ada.post("/loans", [("book", dune)], headers: [.contentType: "application/json"])
            #expect(wrongType.status == .unsupportedMediaType)
        }
    }

    @Test func aFormLargerThanTheLimitIsRefusedBeforeItIsRead() async throws {
        try await withAPI { api in
            let browser = Browser(api)
            try await browser.get("/login")
            let huge = try await browser.post("/login", [("email", String(repeating: "a", count: 100_000))])
            #expect(huge.status == .contentTooLarge)
        }
    }

    @Test func loggingOutEndsTheSessionOnTheServer() async throws {
        try await withAPI { api in
            let token = try await api.signUpMember("ada@example.org")
            let browser = Browser(api, session: token)
            try await browser.get("/search")
            let out = try await browser.post("/logout", [])
            #expect(out.status == .seeOther && out.headers[.location] == "/")
            #expect(out.headers[values: .setCookie].contains { $0.hasPrefix("shelfmark_session=;") && $0.contains("Max-Age=0") })
            #expect(try await api.send(.get, "/api/v1/users/me", token: token).status == .unauthorized)
            // The old cookie, replayed, is a visitor's: private pages send to the login form.
            let replay = Browser(api, session: token)
            let loans = try await replay.get("/loans")
            #expect(loans.status == .seeOther && loans.headers[.location] == "/login?next=%2Floans")
        }
    }

    @Test func loginSendsBackToThePageAskedForButNeverToAnotherSite() async throws {
        try await withAPI { api in
            _ = try await api.signUpMember("ada@example.org")
            for (next, landing) in [
                ("/loans", "/loans"), ("//evil.example", "/search"), ("https://evil.example/", "/search"), ("/\\evil", "/search"),
            ] {
                let browser = Browser(api)
                try await browser.get("/login")
                let done = try await browser.post("/login", [("email", "ada@example.org"), ("password", "Member-Pass1"), ("next", next)])
                #expect(done.headers[.location] == landing, "next=\(next)")
            }
        }
    }

    @Test func wrongPasswordsAreToldPlainlyThenThrottledWithTheWait() async throws {
        try await withAPI { api in
            _ = try await api.signUpMember("ada@example.org")
            let browser = Browser(api)
            try await browser.get("/login")
            let wrong = try await browser.post("/login", [("email", "ada@example.org"), ("password", "Wrong-Pass1")])
            #expect(wrong.status == .unauthorized && wrong.shows(#"id="error-summary""#))
            var last = wrong
            for _ in 0..<6 { last = try await browser.post("/login", [("email", "ada@example.org"), ("password", "Wrong-Pass1")]) }
            #expect(last.status == .tooManyRequests)
            #expect(last.headers[.retryAfter] != nil)
        }
    }

    @Test func titlesAreEscapedEverywhereTheyAppear() async throws {
        try await withAPI { api in
            let id = try await api.addBook("<script>alert(1)</script>", author: "\"><img src=x onerror=alert(2)>")
            let browser = Browser(api)
            for path in ["/books", "/books/\(id)", "/"] {
                let page = try await browser.get(path)
                #expect(!page.text.contains("<script>alert(1)") && !page.text.contains("<img src=x"), "\(path)")
                #expect(page.shows("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
            }
        }
    }

    @Test func aBooksPageIsPublicAndPreviewsWhenShared() async throws {
        try await withAPI { api in
            let id = try await api.addBook("Dune", author: "Frank Herbert")
            let page = try await Browser(api).get("/books/\(id)", headers: [.init("Host")!: "library.example"])
            #expect(page.status == .ok)
            for tag in ["og:title\" content=\"Dune\"", "og:type\" content=\"book\"", "twitter:card", "og:url\" content=\"http://"] {
                #expect(page.shows(tag), "\(tag)")
            }
            #expect(page.shows(#"og:description" content="Dune by Frank Herbert, at the library.""#))
            #expect(page.shows(#"<meta property="book:author" content="Frank Herbert">"#))
            // With a description, the preview still names the authors, then the description's start, cut between words.
            let long = String(repeating: "Sand and spice. ", count: 20)
            let described = try await api.send(
                .post, "/api/v1/books", json: #"{"title":"Emma","authors":["Jane Austen","A. Editor"],"copies":1,"description":"\#(long)"}"#
            )
            let emma = try #require(try described.object["id"] as? String)
            let shared = try await Browser(api).get("/books/\(emma)")
            let summary = "By Jane Austen, A. Editor. Sand and spice."
            for tag in ["og:description", "twitter:description"] { #expect(shared.shows(#"\#(tag)" content="\#(summary)"#), "\(tag)") }
            #expect(shared.shows(#"<meta property="book:author" content="Jane Austen">"#))
            #expect(shared.shows(#"<meta property="book:author" content="A. Editor">"#))
            #expect(shared.shows(#"spice. Sand…">"#) && !shared.shows("Sand an…"), "at most 200 characters, cut between words")
            #expect(try await Browser(api).get("/books/not-a-book").status == .notFound)
            #expect(try await Browser(api).get("/books/\(UUID())").status == .notFound)
        }
    }

    @Test func theCatalogueFiltersSortsAndRemembersTheSort() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Zebra Tales")
            let lent = try await api.addBook("Aardvark Days")
            let ada = try await api.signUpMember("ada@example.org")
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(lent)"]}"#, token: ada)
            let browser = Browser(api)
            let byTitle = try await browser.get("/books?sort=title")
            let text = byTitle.text
            #expect(try #require(text.range(of: "Aardvark")).lowerBound < (try #require(text.range(of: "Zebra"))).lowerBound)
            let again = try await browser.get("/books")
            #expect(again.shows(#"<option value="title" selected>"#), "the sort chosen is remembered")
            let available = try await browser.get("/books?available=1")
            #expect(available.shows("Zebra Tales") && !available.shows("Aardvark Days"))
        }
    }

    @Test func aMemberBorrowsSeveralBooksAtOnceOrNoneWithTheReason() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let emma = try await api.addBook("Emma")
            let gone = try await api.addBook("Gone")
            let eve = try await api.signUpMember("eve@example.org")
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(gone)"]}"#, token: eve)
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/books")
            let refused = try await ada.post("/loans", [("book", dune), ("book", gone), ("back", "/books")])
            #expect(refused.headers[.location] == "/books")
            let shown = try await ada.follow(refused)
            #expect(shown.shows(#"class="flash refused" role="alert""#) && shown.shows("Gone"))
            #expect(
                try await api.send(.get, "/api/v1/loans", token: try #require(await ada.cookies["shelfmark_session"])).text.contains("Dune")
                    == false)
            let done = try await ada.post("/loans", [("book", dune), ("book", emma)])
            #expect(done.headers[.location] == "/loans")
            #expect(try await ada.follow(done).shows("You borrowed 2 books"))
        }
    }

    @Test func getFormsAreReadAsBrowsersSendThemWithPlusForASpace() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Dune Messiah")
            _ = try await api.addBook("Emma")
            let found = try await Browser(api).get("/books?q=dune+messiah")
            #expect(found.shows("Dune Messiah") && !found.shows("Emma"))
            #expect(found.shows(#"value="dune messiah""#))
            _ = try await api.signUpMember("ada+books@example.org")
            let history = try await Browser(api, session: api.librarianToken).get("/audit/history?member=ada%2Bbooks%40example.org")
            #expect(history.status == .ok, "\(history.text)")
        }
    }

    @Test func theAPIKeepsItsOwnAnswersBesideThePages() async throws {
        try await withAPI { api in
            let missing = try await api.send(.get, "/api/v1/nothing")
            #expect(missing.status == .notFound && missing.headers[.contentType] == "application/problem+json")
            let page = try await Browser(api).get("/nothing")
            #expect(page.status == .notFound && page.shows("Page not found"))
            // A client that does not ask for HTML gets the API's problem document for a path nobody serves.
            let plain = try await api.client.execute(uri: "/nothing", method: .get, headers: [.accept: "*/*"])
            #expect(plain.status == .notFound && plain.headers[.contentType] == "application/problem+json")
            #expect(try await Browser(api).get("/static/app.css").headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await Browser(api).get("/static/../Package.swift").status == .notFound)
        }
    }
}
