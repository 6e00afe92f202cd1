import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A member's account page: the card and its barcode, the profile, the password, logging out
/// everywhere and closing the account, as a browser submits its forms.
@Suite("Web: a member's account page")
struct WebMemberPagesAccountTests {
    static let hostile = WebMemberPagesTests.hostile
    static let escaped = WebMemberPagesTests.escaped

    @Test func theAccountPageShowsTheCardAndItsBarcode() async throws {
        try await withAPI { api in
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let page = try await ada.get("/account")
            #expect(page.status == .ok && page.headers[.cacheControl] == "no-store")
            #expect(page.shows(#"<dd id="account-email">ada@example.org</dd>"#) && page.shows(#"<dd id="account-country">France</dd>"#))
            #expect(page.shows(#"<option value="FR" selected>"#))
            let card = try WebMemberPagesTests.text(of: #"<strong id="card-number">"#, in: page.text)
            #expect(card.count == 11 && card.contains(" "))
            #expect(page.shows(#"<img id="card-barcode" class="barcode" src="/account/card.svg" alt="Barcode of card \#(card)">"#))
            #expect(page.shows(#"id="logout-everywhere""#) && page.shows(#"name="everywhere" value="1""#))
            let image = try await ada.get("/account/card.svg")
            #expect(image.status == .ok && image.headers[.contentType] == "image/svg+xml")
            #expect(image.shows("<svg") && image.shows(card))
            #expect(image.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
        }
    }

    @Test func aResetCodeFromTheDeskSetsANewPasswordFromTheLoginPage() async throws {
        try await withAPI { api in
            // Given a member who forgot her password, and the code the desk issued her
            _ = try await api.signUpMember("ada@example.org")
            let code = try #require(try await api.send(.post, "/api/v1/users/ada@example.org/reset-code").object["code"] as? String)
            let visitor = Browser(api)

            // When she follows the login page's link to the reset form
            let login = try await visitor.get("/login")
            #expect(login.shows(#"<a href="/password-reset">Use a reset code from the desk</a>"#))
            let form = try await visitor.get("/password-reset")
            #expect(form.status == .ok && form.shows(#"<form id="reset""#) && form.shows(#"autocomplete="one-time-code""#))

            // Then a wrong code and a weak password are refused on the form, the address kept
            let weak = try await visitor.post("/password-reset", [("email", "ada@example.org"), ("code", code), ("new", "short")])
            #expect(weak.status == .badRequest && weak.shows(#"id="new-error""#) && weak.shows(#"value="ada@example.org""#))
            let wrong = try await visitor.post(
                "/password-reset", [("email", "ada@example.org"), ("code", "AAAA-AAAA-AAAA"), ("new", "Brand-New-Pass1!")])
            // The status the API answers (found by an outside walk: this page said 409 where the API says 403).
            #expect(wrong.status == .forbidden && wrong.shows(#"id="error-summary""#), "\(wrong.status)")

            // And the right code, typed in lower case, sets the new password: the login page says so
            let done = try await visitor.post(
                "/password-reset", [("email", "ada@example.org"), ("code", code.lowercased()), ("new", "Brand-New-Pass1!")])
            #expect(done.status == .seeOther && done.headers[.location] == "/login")
            #expect(try await visitor.follow(done).shows("Log in with the new password."))
            let old = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            #expect(old.status == .unauthorized)
            let new = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Brand-New-Pass1!"}"#, token: .none)
            #expect(new.status == .created)
            let again = try await visitor.post("/password-reset", [("email", "ada@example.org"), ("code", code), ("new", "Other-Pass1!")])
            #expect(again.status.code >= 400, "the code worked once")
        }
    }

    @Test func theProfileIsEditedOrRefusedNextToItsFields() async throws {
        try await withAPI { api in
            _ = try await api.signUpMember("eve@example.org")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/account")
            let bad = try await ada.post("/account", [("email", "not an address"), ("displayName", Self.hostile), ("country", "FR")])
            #expect(bad.status == .badRequest)
            #expect(bad.shows(#"id="error-summary""#) && bad.shows(#"aria-describedby="email-error""#))
            #expect(bad.shows(#"<p class="field-error" id="email-error">"#) && bad.shows(#"value="not an address""#))
            #expect(bad.shows(#"value="\#(Self.escaped)""#) && !bad.shows(Self.hostile), "the name typed is kept, as text")
            let taken = try await ada.post("/account", [("email", "eve@example.org"), ("displayName", "Ada"), ("country", "FR")])
            #expect(taken.status != .seeOther && taken.shows(#"id="email-error""#) && taken.shows("already exists"))
            let done = try await ada.post("/account", [("email", "ada@example.com"), ("displayName", "Ada L."), ("country", "DE")])
            #expect(done.status == .seeOther && done.headers[.location] == "/account")
            let page = try await ada.follow(done)
            #expect(page.shows("Updated the account of ada@example.com."))
            #expect(page.shows(#"<dd id="account-name">Ada L.</dd>"#) && page.shows(#"<dd id="account-country">Germany</dd>"#))
        }
    }

    @Test func aUsernameIsChosenOnTheAccountPageAndLogsInOnTheLoginPage() async throws {
        try await withAPI { api in
            let eve = Browser(api, session: try await api.signUpMember("eve@example.org"))
            try await eve.get("/account")
            #expect(try await eve.post("/account", [("username", "eve")]).status == .seeOther)
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let before = try await ada.get("/account")
            #expect(before.shows(#"<dd id="account-username">none</dd>"#) && before.shows(#"id="username""#))
            let taken = try await ada.post("/account", [("username", "EVE"), ("displayName", "Ada"), ("country", "FR")])
            #expect(taken.status == .conflict && taken.shows(#"id="username-error""#) && taken.shows("already has this username"))
            let bad = try await ada.post("/account", [("username", "ada@home"), ("displayName", "Ada"), ("country", "FR")])
            #expect(bad.status == .badRequest && bad.shows(#"id="username-error""#) && bad.shows(#"value="ada@home""#))
            let done = try await ada.post("/account", [("username", "Ada.L"), ("displayName", "Ada"), ("country", "FR")])
            #expect(done.status == .seeOther)
            #expect(try await ada.follow(done).shows(#"<dd id="account-username">ada.l</dd>"#))
            // A new browser logs in with the username.
            let other = Browser(api)
            let form = try await other.get("/login")
            #expect(form.shows("Email address or username"))
            let login = try await other.post("/login", [("email", "ADA.L"), ("password", "Member-Pass1")])
            #expect(login.status == .seeOther && login.headers[.location] == "/search", "\(login.text)")
        }
    }

    @Test func changingThePasswordKeepsThisBrowserAndEndsTheOtherSessions() async throws {
        try await withAPI { api in
            let token = try await api.signUpMember("ada@example.org")
            let other = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            let otherToken = try #require(try other.object["token"] as? String)
            let ada = Browser(api, session: token)
            try await ada.get("/account")
            let wrong = try await ada.post("/account/password", [("current", "nope"), ("new", "N3w-password")])
            #expect(wrong.status == .forbidden, "as the API answers a wrong password: \(wrong.status)")
            #expect(wrong.shows(#"<p class="field-error" id="current-error">"#) && wrong.shows("is not right"))
            #expect(wrong.shows(#"aria-describedby="current-error""#))
            let weak = try await ada.post("/account/password", [("current", "Member-Pass1"), ("new", "short")])
            #expect(weak.status == .badRequest && weak.shows(#"id="new-error""#) && weak.shows("new-rules new-error"))
            let changed = try await ada.post("/account/password", [("current", "Member-Pass1"), ("new", "N3w-password")])
            #expect(changed.status == .seeOther && changed.headers[.location] == "/account")
            let page = try await ada.follow(changed)
            #expect(page.status == .ok && page.shows("Password changed. Your other session was logged out."))
            #expect(try await api.send(.get, "/api/v1/me", token: otherToken).status == .unauthorized)
            #expect(try await api.send(.get, "/api/v1/me", token: token).status == .ok)
        }
    }

    @Test func loggingOutEverywhereFromTheAccountPageEndsEverySession() async throws {
        try await withAPI { api in
            let token = try await api.signUpMember("ada@example.org")
            let other = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            let otherToken = try #require(try other.object["token"] as? String)
            let ada = Browser(api, session: token)
            try await ada.get("/account")
            let out = try await ada.post("/logout", [("everywhere", "1")])
            #expect(out.status == .seeOther && out.headers[.location] == "/")
            #expect(try await api.send(.get, "/api/v1/me", token: otherToken).status == .unauthorized)
            #expect(try await api.send(.get, "/api/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test func closingTheAccountWantsTheTypedWordAndNoLoansThenLogsOut() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let token = try await api.signUpMember("ada@example.org")
            let ada = Browser(api, session: token)
            try await ada.get("/books")
            try await ada.post("/loans", [("book", dune)])
            try await ada.get("/account")
            let unconfirmed = try await ada.post("/account/close", [("confirm", "yes")])
            #expect(unconfirmed.status == .badRequest && unconfirmed.shows(#"<p class="field-error" id="confirm-error">"#))
            #expect(unconfirmed.shows(#"aria-describedby="confirm-error""#))
            let withLoans = try await ada.post("/account/close", [("confirm", "CLOSE")])
            #expect(withLoans.status == .conflict && withLoans.shows(#"id="error-summary""#))
            #expect(withLoans.shows("stays open while books are on loan to them: return “Dune”"))
            let loan = try WebMemberPagesTests.loanID(of: "Dune", in: try await ada.get("/loans").text)
            try await ada.post("/loans/\(loan)/return", [])
            let closed = try await ada.post("/account/close", [("confirm", "close")])
            #expect(closed.status == .seeOther && closed.headers[.location] == "/")
            #expect(closed.headers[values: .setCookie].contains { $0.hasPrefix("shelfmark_session=;") && $0.contains("Max-Age=0") })
            let landing = try await ada.follow(closed)
            #expect(landing.shows("Closed the account of ada@example.org") && !landing.shows(#"id="logout""#))
            #expect(try await api.send(.get, "/api/v1/me", token: token).status == .unauthorized)
            #expect(try await Browser(api, session: token).get("/account").status == .seeOther)
        }
    }

    @Test func aLibrarianSeesTheirOwnMemberPages() async throws {
        try await withAPI { api in
            let librarian = Browser(api, session: api.librarianToken)
            for path in ["/bookmarks", "/loans", "/holds", "/notices", "/account"] {
                #expect(try await librarian.get(path).status == .ok, "\(path)")
            }
            try await librarian.get("/account")
            let closing = try await librarian.post("/account/close", [("confirm", "CLOSE")])
            #expect(closing.status == .conflict && closing.shows("last librarian"), "the library keeps its last librarian")
        }
    }
}
