import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// The librarian's pages: adding, editing, importing and withdrawing books, the front desk, the
/// members list and the audit, through the real application and its SQLite database.
@Suite("Web: the librarian's pages")
struct WebLibrarianPagesTests {
    static let hostile = "<script>alert(1)</script>"

    @Test func addingABookShowsEachFieldsErrorThenLandsOnTheBookEscaped() async throws {
        try await withAPI { api in
            let librarian = Browser(api, session: api.librarianToken)
            let form = try await librarian.get("/books/new")
            #expect(form.status == .ok && form.shows("data-unsaved") && form.shows(#"<label for="authors">"#))
            let refused = try await librarian.post(
                "/books", [("title", ""), ("authors", " , "), ("isbn", "123"), ("publisher", "Gollancz"), ("copies", "")])
            #expect(refused.status == .badRequest)
            #expect(refused.shows(#"id="error-summary""#))
            for field in ["title", "authors", "isbn", "copies"] {
                #expect(refused.shows(#"<p class="field-error" id="\#(field)-error">"#), "\(field)")
                #expect(refused.shows(#"aria-describedby="\#(field)"#), "\(field)")
            }
            #expect(refused.shows(#"value="Gollancz""#) && refused.shows(#"value="123""#), "the values typed are kept")

            let added = try await librarian.post(
                "/books",
                [("title", Self.hostile), ("authors", "Ada Writer, Bo Writer"), ("categories", "fiction, tests"), ("copies", "2")])
            #expect(added.status == .seeOther)
            let location = try #require(added.headers[.location])
            #expect(location.hasPrefix("/books/"))
            let page = try await librarian.follow(added)
            #expect(page.shows("&lt;script&gt;alert(1)&lt;/script&gt;") && !page.shows(Self.hostile))
            #expect(page.shows(#"id="flash""#) && page.shows("Ada Writer, Bo Writer"))
            let book = try await api.send(.get, "/api/v1\(location)").object
            #expect(book["copies"] as? Int == 2 && book["categories"] as? [String] == ["fiction", "tests"])
        }
    }

    @Test func editingChangesOnlyTheFieldsChanged() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune", copies: 1, author: "Frank Herbert")
            let librarian = Browser(api, session: api.librarianToken)
            let form = try await librarian.get("/books/\(dune)/edit")
            #expect(form.status == .ok && form.shows(#"value="Dune""#) && form.shows(#"value="Frank Herbert""#))
            #expect(form.shows(#"action="/books/\#(dune)""#) && form.shows("data-unsaved"))
            let fields = [("title", "Dune Messiah"), ("authors", "Frank Herbert"), ("isbn", ""), ("copies", "3"), ("description", "")]
            let saved = try await librarian.post("/books/\(dune)", fields)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/books/\(dune)")
            let book = try await api.send(.get, "/api/v1/books/\(dune)").object
            #expect(book["title"] as? String == "Dune Messiah" && book["copies"] as? Int == 3)
            #expect(book["authors"] as? [String] == ["Frank Herbert"])

            try await librarian.get("/books/\(dune)/edit")
            let refused = try await librarian.post("/books/\(dune)", [("title", " "), ("authors", "Frank Herbert"), ("copies", "3")])
            #expect(refused.status == .badRequest && refused.shows(#"id="title-error""#))
            #expect(try await librarian.get("/books/\(UUID())/edit").status == .notFound)
        }
    }

    @Test func importingByISBNAddsTheBookOrSaysOpenLibraryIsDown() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                let librarian = Browser(api, session: api.librarianToken)
                let form = try await librarian.get("/books/import")
                #expect(form.status == .ok && form.shows(#"<label for="isbn">"#))
                let bad = try await librarian.post("/books/import", [("isbn", "123"), ("copies", "1")])
                #expect(bad.status == .badRequest && bad.shows(#"id="isbn-error""#))
                let noAuthor = try await librarian.post("/books/import", [("isbn", "0140328726"), ("copies", "1")])
                #expect(noAuthor.status == .badRequest && noAuthor.shows(#"id="authors-error""#), "\(noAuthor.text)")
                let done = try await librarian.post("/books/import", [("isbn", "0140328726"), ("authors", "Roald Dahl"), ("copies", "2")])
                #expect(done.status == .seeOther)
                #expect(try await librarian.follow(done).shows("Fantastic Mr. Fox"))
            }
            try await withAPI(configure: { $0.openLibraryURL = base + "/error" }) { api in
                let librarian = Browser(api, session: api.librarianToken)
                let down = try await librarian.submit(
                    from: "/books/import", to: "/books/import", [("isbn", "0140328726"), ("authors", "R"), ("copies", "1")])
                #expect(down.status == .serviceUnavailable && down.shows("Open Library") && down.shows(#"value="0140328726""#))
                #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 0)
            }
        }
    }

    @Test func deletingSeveralIsAllOrNothingAndOneFromItsPage() async throws {
        try await withAPI { api in
            let (dune, emma, lent) = (try await api.addBook("Dune"), try await api.addBook("Emma"), try await api.addBook("Lent Out"))
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(lent)"]}"#, token: ada).status == .created)
            let librarian = Browser(api, session: api.librarianToken)
            let catalogue = try await librarian.get("/books")
            #expect(catalogue.shows(#"id="bulk-delete""#))
            let refused = try await librarian.post("/books/delete", [("book", dune), ("book", lent), ("back", "/books")])
            #expect(refused.status == .seeOther && refused.headers[.location] == "/books")
            let after = try await librarian.follow(refused)
            #expect(after.shows(#"class="flash refused""#) && after.shows("Lent Out"), "the refusal names the book on loan")
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 3, "nothing was deleted")

            let done = try await librarian.post("/books/delete", [("book", dune), ("book", emma)])
            #expect(done.status == .seeOther && done.headers[.location] == "/books")
            #expect(try await librarian.follow(done).shows("Withdrew 2 books."))
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 1)

            try await librarian.get("/books/\(lent)")
            let one = try await librarian.post("/books/\(lent)/delete", [])
            #expect(one.headers[.location] == "/books/\(lent)", "on loan: back to its page with the reason")
        }
    }

    @Test func deletingEveryBookNeedsTheTypedConfirmation() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Dune")
            _ = try await api.addBook("Emma")
            let librarian = Browser(api, session: api.librarianToken)
            let form = try await librarian.get("/books/delete-all")
            #expect(form.status == .ok && form.shows(#"<label for="confirm">"#) && form.shows("DELETE ALL"))
            for typed in ["", "delete all", "DELETE"] {
                let refused = try await librarian.post("/books/delete-all", [("confirm", typed)])
                #expect(refused.status == .badRequest && refused.shows(#"id="confirm-error""#), "\(typed)")
                #expect(refused.shows(#"aria-describedby="confirm-error""#))
            }
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 2)
            let done = try await librarian.post("/books/delete-all", [("confirm", "DELETE ALL")])
            #expect(done.status == .seeOther && done.headers[.location] == "/books")
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 0)
        }
    }

    @Test func theDeskLendsByCardNumberReturnsAndChecksOutToAWalkIn() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let (dune, emma) = (try await api.addBook("Dune", copies: 2), try await api.addBook(Self.hostile))
            let ada = try await api.signUpMember("ada@example.org")
            let card = try #require(try await api.send(.get, "/api/v1/me", token: ada).object["cardNumber"] as? String)
            let librarian = Browser(api, session: api.librarianToken)
            let desk = try await librarian.get("/desk")
            #expect(desk.status == .ok && desk.shows(#"id="desk-lend""#) && desk.shows(#"value="\#(dune)""#))
            #expect(desk.shows("&lt;script&gt;") && !desk.shows(Self.hostile))

            let unknown = try await librarian.post("/desk/lend", [("member", "12345"), ("book", dune)])
            #expect(unknown.status == .badRequest && unknown.shows(#"id="member-error""#), "\(unknown.text)")
            #expect(unknown.shows(#"value="12345""#) && unknown.shows(#"value="\#(dune)" checked"#))

            let lent = try await librarian.post("/desk/lend", [("member", card), ("book", dune), ("book", emma)])
            #expect(lent.status == .seeOther && lent.headers[.location] == "/desk")
            let after = try await librarian.follow(lent)
            #expect(after.shows("Lent 2 books to") && after.shows(#"<tr class="loan""#))
            let hers = try await librarian.get("/desk?member=\(card)")
            #expect(hers.status == .ok && hers.shows(#"value="\#(card)""#) && hers.shows("Dune"))
            let nobody = try await librarian.get("/desk?member=nobody@example.org")
            #expect(nobody.status == .notFound && nobody.shows(#"id="member-filter-error""#), "the filter says whom it did not find")
            // A username nobody has is not found; a walk-in's name (with a space) names no member.
            #expect(try await librarian.get("/desk?member=walter").status == .notFound)
            #expect(try await librarian.get("/desk?member=Walter%20Walk").status == .badRequest)
            let loans = try await api.send(.get, "/api/v1/loans?member=ada@example.org").object["items"] as? [[String: Any]]
            #expect(loans?.count == 2)

            let walkIn = try await librarian.submit(
                from: "/books/\(dune)", to: "/desk/walk-in", [("book", dune), ("name", "Walter Walk"), ("back", "/books/\(dune)")])
            #expect(walkIn.status == .seeOther && walkIn.headers[.location] == "/books/\(dune)")
            #expect(try await librarian.follow(walkIn).shows("Walter Walk"))
            let noName = try await librarian.post("/desk/walk-in", [("book", emma), ("name", " "), ("back", "/desk")])
            #expect(noName.headers[.location] == "/desk")
            #expect(try await librarian.follow(noName).shows(#"class="flash refused""#))

            clock.advance(by: 20 * 24 * 3600)  // past the 14 days of a loan, within the 30 days of a session
            let late = try await librarian.get("/desk")
            #expect(late.shows(#"<tr class="loan overdue""#) && late.shows("Walter Walk (walk-in)"))
            let loan = try #require(loans?.first?["id"] as? String)
            let returned = try await librarian.post("/desk/return", [("loan", loan), ("back", "/desk")])
            #expect(returned.status == .seeOther)
            #expect(try await librarian.follow(returned).shows("is back from"))
            #expect(try await api.send(.get, "/api/v1/loans?member=ada@example.org").object["total"] as? Int == 1)
        }
    }

    @Test func theDeskIssuesAResetCodeOnceAndShowsABooksWaitingList() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let (ada, bob) = (try await api.signUpMember("ada@example.org"), try await api.signUpMember("bob@example.org"))
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).status == .created)
            #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(dune)"}"#, token: bob).status == .created)
            let librarian = Browser(api, session: api.librarianToken)
            let line = try await librarian.get("/desk?book=\(dune)")
            #expect(line.status == .ok && line.shows(#"id="waiting-list""#) && line.shows(#"<tr class="hold""#))
            #expect(try await librarian.get("/desk?book=\(UUID())").status == .notFound)

            let code = try await librarian.post("/desk/reset-code", [("member", "bob@example.org")])
            #expect(code.status == .ok && code.shows(#"id="reset-code-value""#))
            #expect(code.headers[values: .setCookie].allSatisfy { !$0.hasPrefix("shelfmark_flash") }, "the code is in no cookie")
            let later = try await librarian.get("/desk")
            #expect(!later.shows(#"id="reset-code-value""#), "shown once")
            let nobody = try await librarian.post("/desk/reset-code", [("member", "")])
            #expect(nobody.status == .badRequest && nobody.shows(#"id="reset-member-error""#))
        }
    }

    @Test func membersArePromotedAndTheLastLibrarianStaysOne() async throws {
        try await withAPI { api in
            _ = try await api.signUpMember("ada@example.org")
            let me = try #require(try await api.send(.get, "/api/v1/me").object["id"] as? String)
            let users = try await api.send(.get, "/api/v1/users").object["items"] as? [[String: Any]]
            let ada = try #require(users?.first { $0["email"] as? String == "ada@example.org" }?["id"] as? String)
            let librarian = Browser(api, session: api.librarianToken)
            let list = try await librarian.get("/members")
            #expect(list.status == .ok && list.shows("ada@example.org") && list.shows(#"class="stack-on-phone""#))

            let refused = try await librarian.post("/members/\(me)/role", [("role", "member")])
            #expect(refused.status == .seeOther && refused.headers[.location] == "/members")
            let said = try await librarian.follow(refused)
            #expect(said.shows(#"class="flash refused""#) && said.shows("librarian"), "\(said.text)")

            let promoted = try await librarian.post("/members/\(ada)/role", [("role", "librarian")])
            let now = try await librarian.follow(promoted)
            #expect(now.shows("ada@example.org is now a librarian."), "\(now.text)")
            let demoted = try await librarian.follow(try await librarian.post("/members/\(ada)/role", [("role", "member")]))
            #expect(demoted.shows("ada@example.org is now a member.") && !demoted.shows(#"class="flash refused""#))
            let wrong = try await librarian.post("/members/\(ada)/role", [("role", "king")])
            #expect(try await librarian.follow(wrong).shows(#"class="flash refused""#))
        }
    }

    @Test func theAuditVerifiesShowsHistoriesAndTheLibraryAsItWas() async throws {
        try await withAPI { api in
            let dune = try await api.addBook(Self.hostile)
            let librarian = Browser(api, session: api.librarianToken)
            let audit = try await librarian.get("/audit")
            #expect(audit.status == .ok && audit.shows(#"type="datetime-local""#) && audit.shows(#"<label for="at">"#))
            let verdict = try await librarian.post("/audit/verify", [])
            #expect(verdict.status == .ok && verdict.shows(#"id="verdict""#) && verdict.shows("The log verifies."))

            let history = try await librarian.get("/audit/history?book=\(dune)")
            #expect(history.status == .ok && history.shows(#"<li class="event""#) && history.shows("librarian@example.org"))
            #expect(history.shows("&lt;script&gt;") && !history.shows(Self.hostile))
            let member = try await librarian.get("/audit/history?member=librarian@example.org")
            #expect(member.status == .ok && member.shows(#"id="timeline""#))
            #expect(try await librarian.get("/audit/history").status == .badRequest)

            let at = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600 * 24 * 365 * 5)).prefix(16))
            let asOf = try await librarian.get("/audit/as-of?at=\(at)&view=catalogue")
            #expect(asOf.status == .ok && asOf.shows(#"id="as-of-books""#) && asOf.shows("&lt;script&gt;"), "\(asOf.text)")
            let loans = try await librarian.get("/audit/as-of?at=2000-01-01T00:00:00Z&view=loans")
            #expect(loans.status == .ok && loans.shows("No book was out."))
            let bad = try await librarian.get("/audit/as-of?at=yesterday&view=loans")
            #expect(bad.status == .badRequest && bad.shows(#"id="at-error""#) && bad.shows(#"value="yesterday""#))
            #expect(bad.shows(#"<option value="loans" selected>"#), "the view chosen is kept")
            // Times that do not exist are refused as the API refuses them, not rolled over (found by an outside walk)
            for impossible in ["2026-02-30T00:00", "2026-11-29T25:61", "2026-02-29T00:00", "2027-01-01T00:00:00+00:99"] {
                let refused = try await librarian.get("/audit/as-of?at=\(impossible.replacingOccurrences(of: "+", with: "%2B"))&view=loans")
                #expect(refused.status == .badRequest && refused.shows(#"id="at-error""#), "\(impossible)")
            }
            for possible in ["2028-02-29T00:00", "2026-11-29T18:13:06.123", "2026-11-29T18:13:06Z", "2026-11-29T19:13:06+01:00"] {
                let shown = try await librarian.get("/audit/as-of?at=\(possible.replacingOccurrences(of: "+", with: "%2B"))&view=loans")
                #expect(shown.status == .ok, "\(possible)")
            }
            #expect(try await librarian.get("/audit/as-of?at=2026-01-01T00:00&view=bogus").status == .badRequest)
        }
    }

    @Test func membersGetTheForbiddenPageAndVisitorsTheLoginForm() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let member = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let anonymous = Browser(api)
            let pages = [
                "/books/new", "/books/\(dune)/edit", "/books/import", "/books/delete-all", "/desk", "/desk?book=\(dune)", "/members",
                "/audit", "/audit/history?book=\(dune)", "/audit/as-of?at=2026-01-01T00:00&view=loans",
            ]
            for path in pages {
                let forbidden = try await member.get(path)
                #expect(forbidden.status == .forbidden && forbidden.shows(#"id="error-message""#), "\(path)")
                let away = try await anonymous.get(path)
                #expect(away.status == .seeOther && away.headers[.location]?.hasPrefix("/login?next=") == true, "\(path)")
            }
            try await member.get("/books")
            try await anonymous.get("/login")
            let forms: [(String, [(String, String)])] = [
                ("/books", [("title", "X"), ("authors", "Y"), ("copies", "1")]), ("/books/\(dune)", [("title", "X")]),
                ("/books/import", [("isbn", "0140328726")]), ("/books/\(dune)/delete", []), ("/books/delete", [("book", dune)]),
                ("/books/delete-all", [("confirm", "DELETE ALL")]), ("/desk/lend", [("member", "ada@example.org"), ("book", dune)]),
                ("/desk/return", [("loan", UUID().uuidString)]), ("/desk/reset-code", [("member", "ada@example.org")]),
                ("/desk/walk-in", [("book", dune), ("name", "W")]), ("/members/\(UUID())/role", [("role", "librarian")]),
                ("/audit/verify", []),
            ]
            for (path, fields) in forms {
                #expect(try await member.post(path, fields).status == .forbidden, "\(path)")
                let away = try await anonymous.post(path, fields)
                #expect(away.status == .seeOther && away.headers[.location]?.hasPrefix("/login") == true, "\(path)")
            }
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 1)
        }
    }
}
