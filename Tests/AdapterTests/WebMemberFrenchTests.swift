import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing
import Wording

@testable import Web

/// The public and member pages in French, and how a page's language is chosen: the switcher's
/// cookie, else the account's preference, else `Accept-Language`, else English.
@Suite("Web: the public and member pages in French")
struct WebMemberFrenchTests {
    static let french: HTTPFields = [.acceptLanguage: "fr-CA,fr;q=0.9,en;q=0.5"]
    static let english: HTTPFields = [.acceptLanguage: "en-GB,en;q=0.9"]
    static let nbsp = "\u{A0}"
    /// A day as French writes it: "22 novembre 2026".
    static var frenchDay: Regex<(Substring, Substring)> {
        /\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4}/
    }

    @Test func aBrowserAskingForCanadianFrenchGetsFrenchPages() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let browser = Browser(api)
            let home = try await browser.get("/", headers: Self.french)
            #expect(home.shows(#"<html lang="fr">"#) && home.headers[.contentLanguage] == "fr")
            #expect(home.shows("<title>Bienvenue · Bibliothèque</title>") && home.shows(#"<a class="brand" href="/">Bibliothèque</a>"#))
            #expect(home.shows("Créer un compte") && home.shows("Se connecter") && !home.shows("Sign up"))
            #expect(home.shows("1 sur 1 disponible"), "a book's availability is worded in French")
            let book = try await browser.get("/books/\(dune)", headers: Self.french)
            #expect(book.shows(#"<meta property="og:locale" content="fr_FR">"#))
            #expect(book.shows(#"<meta property="og:site_name" content="Bibliothèque">"#))
            #expect(book.shows("1 sur 1 en rayon") && book.shows("0 en attente"))

            let english = try await Browser(api).get("/books/\(dune)", headers: Self.english)
            #expect(english.shows(#"<html lang="en">"#) && english.shows(#"content="en_GB""#) && english.shows("1 of 1 on the shelf"))
            let none = try await Browser(api).get("/")
            #expect(none.shows(#"<html lang="en">"#) && none.shows("Shelfmark"), "no language asked for: English")
        }
    }

    @Test func anOperatorsOwnSiteNameIsKeptInEveryLanguage() throws {
        let named = try Pages(siteName: "Médiathèque de Namur")
        #expect(Reader.$language.withValue(.french) { named.name } == "Médiathèque de Namur")
        let unnamed = try Pages(siteName: nil)
        #expect(Reader.$language.withValue(.french) { unnamed.name } == "Bibliothèque")
        #expect(Reader.$language.withValue(.english) { unnamed.name } == "Shelfmark")
    }

    @Test func templatesTextsAreFilledPerLanguageAndEscaped() {
        let template = #"<p title="[[web.loans.empty]]">[[web.frame.logIn]] {{name}} [[not a key]] [[]]</p>"#
        #expect(PageText.fill(template, in: .english) == #"<p title="You have no loans yet.">Log in {{name}} [[not a key]] [[]]</p>"#)
        #expect(
            PageText.fill(template, in: .french)
                == #"<p title="Vous n&#39;avez encore aucun prêt.">Se connecter {{name}} [[not a key]] [[]]</p>"#)
        #expect(PageText.escape(#"<a href="x">Tom & Jerry's</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    }

    @Test func signingUpInFrenchIsWordedInFrenchAndKeepsFrench() async throws {
        try await withAPI { api in
            let browser = Browser(api)
            let form = try await browser.get("/signup", headers: Self.french)
            #expect(form.shows("<h1>Créer un compte</h1>") && form.shows("Adresse e-mail") && form.shows("Au moins 8 caractères"))
            #expect(form.shows(#"data-done="%1$@\#(Self.nbsp): fait""#), "the script's words come from the page")
            let weak = try await browser.post(
                "/signup", [("email", "ada@example.org"), ("password", "short"), ("country", "FR")], headers: Self.french)
            #expect(weak.status == .badRequest)
            #expect(weak.shows("Il y a un problème") && weak.shows("Mot de passe\(Self.nbsp): "), "a field's error is 'Label : problem.'")
            let done = try await browser.post(
                "/signup", [("email", "ada@example.org"), ("password", "Str0ng!pass"), ("displayName", "Ada"), ("country", "FR")],
                headers: Self.french)
            #expect(done.status == .seeOther)
            let home = try await browser.get(try #require(done.headers[.location]), headers: Self.english)
            #expect(home.shows("Bienvenue à la bibliothèque, Ada."), "signed up in French: French is the account's preference")
            let account = try await browser.get("/account", headers: Self.english)
            #expect(account.shows(#"<dd id="account-language">Français</dd>"#) && account.shows(#"<option value="fr" lang="fr" selected>"#))
        }
    }

    @Test func loansShowFrenchDatesAndARefusedBorrowIsSaidInFrench() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let bob = Browser(api, session: try await api.signUpMember("bob@example.org"))
            try await ada.get("/books/\(dune)", headers: Self.french)
            let borrowed = try await ada.post("/loans", [("book", dune), ("back", "/loans")], headers: Self.french)
            let loans = try await ada.get(try #require(borrowed.headers[.location]), headers: Self.french)
            #expect(loans.shows("<h1>Mes prêts</h1>") && loans.shows("À rendre le") && loans.shows("2 prolongations possibles"))
            #expect(loans.text.contains(Self.frenchDay), "due dates in French")
            #expect(!loans.text.contains(/(January|February|March|April|May|June|July|August|September|October|November|December) \d/))

            try await bob.get("/books/\(dune)", headers: Self.french)
            let refused = try await bob.post("/loans", [("book", dune), ("back", "/books/\(dune)")], headers: Self.french)
            let page = try await bob.get(try #require(refused.headers[.location]), headers: Self.french)
            #expect(page.shows(#"class="flash refused""#))
            #expect(page.shows("«\(Self.nbsp)Dune\(Self.nbsp)»") && page.shows("exemplaire"), "\(Self.flash(page.text))")
            let flash = Self.flash(page.text)
            #expect(!flash.contains("copy") && !flash.contains("available") && flash.contains("«\(Self.nbsp)Dune\(Self.nbsp)»"), "\(flash)")
        }
    }

    @Test func theSwitchersCookieBeatsTheBrowsersLanguage() async throws {
        try await withAPI { api in
            let browser = Browser(api)
            let chosen = try await browser.get("/language?to=en&back=%2Fbooks%3Fsort%3Dtitle", headers: Self.french)
            #expect(chosen.status == .seeOther && chosen.headers[.location] == "/books?sort=title")
            let cookie = try #require(chosen.headers[values: .setCookie].first { $0.hasPrefix("shelfmark_lang=en") })
            for flag in ["SameSite=Lax", "Max-Age=31536000", "Path=/"] { #expect(cookie.contains(flag), "\(cookie)") }
            #expect(try await browser.get("/books", headers: Self.french).shows(#"<html lang="en">"#))
            try await browser.get("/language?to=fr&back=/", headers: Self.english)
            let page = try await browser.get("/login", headers: Self.english)
            #expect(page.shows(#"<html lang="fr">"#) && page.shows("<h1>Se connecter</h1>"))
            #expect(page.shows(#"href="/language?to=en&amp;back=/login""#) && page.shows(#"aria-current="true">Français</a>"#))
        }
    }

    @Test(arguments: ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "", "evil"])
    func theSwitcherGoesBackOnlyToAPageOfThisSite(back: String) async throws {
        try await withAPI { api in
            let encoded = back.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = try await Browser(api).get("/language?to=fr&back=\(encoded)")
            #expect(answer.status == .seeOther && answer.headers[.location] == "/", "\(back)")
            #expect(answer.headers[values: .setCookie].contains { $0.hasPrefix("shelfmark_lang=fr") })
        }
    }

    @Test func theAccountsPreferenceBeatsTheBrowsersLanguageAndTheCookieBeatsBoth() async throws {
        try await withAPI { api in
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let before = try await ada.get("/account", headers: Self.english)
            #expect(before.shows("<h1>My account</h1>") && before.shows(#"<select id="language" name="language""#))
            let saved = try await ada.post(
                "/account", [("displayName", "Ada"), ("email", "ada@example.org"), ("country", "FR"), ("language", "fr")],
                headers: Self.english)
            #expect(saved.status == .seeOther)
            await ada.forget(cookie: "shelfmark_lang")
            let page = try await ada.get("/account", headers: Self.english)
            #expect(page.shows(#"<html lang="fr">"#) && page.shows("<h1>Mon compte</h1>"), "the account's preference beats Accept-Language")
            #expect(page.shows(#"<dd id="account-language">Français</dd>"#))
            await ada.setCookie("shelfmark_lang", "en")
            #expect(try await ada.get("/account", headers: Self.french).shows("<h1>My account</h1>"), "the switcher's choice beats both")
        }
    }

    @Test func noticesHoldsAndBookmarksAreInFrench() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/books/\(dune)", headers: Self.french)
            try await ada.post("/bookmarks", [("book", dune), ("back", "/bookmarks")], headers: Self.french)
            let bookmarks = try await ada.get("/bookmarks", headers: Self.french)
            #expect(bookmarks.shows("1 dans votre liste de lecture") && bookmarks.shows("Ajouté aux favoris le"))
            #expect(bookmarks.text.contains(Self.frenchDay))
            #expect(try await ada.get("/holds", headers: Self.french).shows("Vous n&#39;attendez aucun livre"))
            let notices = try await ada.get("/notices", headers: Self.french)
            #expect(notices.shows("Rien de non lu") && notices.shows(#"aria-label="0 non lu""#))
        }
    }

    /// The flash message of a page, for a failure's message.
    static func flash(_ html: String) -> String {
        guard let start = html.range(of: #"id="flash""#) else { return "<no flash>" }
        return String(html[start.upperBound...].prefix { $0 != "<" })
    }
}
