import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// A member's own pages: bookmarks, loans, holds, notices and the account, through the real
/// application and its SQLite database, as a browser submits their forms.
@Suite("Web: a member's pages")
struct WebMemberPagesTests {
    static let hostile = "<script>alert(1)</script>"
    static let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"

    @Test func anonymousVisitorsAreSentToLogInAndBack() async throws {
        try await withAPI { api in
            let browser = Browser(api)
            for path in ["/bookmarks", "/loans", "/holds", "/notices", "/account", "/account/card.svg", "/bookmarks?sort=title"] {
                let page = try await browser.get(path)
                #expect(page.status == .seeOther, "\(path)")
                let next = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                #expect(page.headers[.location] == "/login?next=\(next)", "\(path)")
            }
            try await browser.get("/login")
            for path in ["/loans/renew-all", "/notices/read-all", "/account", "/account/password", "/account/close"] {
                let answer = try await browser.post(path, [])
                #expect(answer.status == .seeOther && answer.headers[.location] == "/login", "\(path)")
            }
        }
    }

    @Test func myLoansShowDueDatesAndRenewalsLeftAndRenewAndReturn() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune", copies: 2)
            let emma = try await api.addBook(Self.hostile, copies: 2)
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/books")
            let borrowed = try await ada.post("/loans", [("book", dune), ("book", emma)])
            #expect(borrowed.status == .seeOther && borrowed.headers[.location] == "/loans")
            let page = try await ada.follow(borrowed)
            #expect(page.status == .ok && page.headers[.cacheControl] == "no-store")
            #expect(page.shows("You borrowed 2 books"))
            #expect(page.shows(Self.escaped) && !page.shows(Self.hostile), "a hostile title shows as text")
            #expect(page.shows(#"class="loans stack-on-phone""#) && page.shows(#"<th scope="col">Due</th>"#))
            #expect(page.shows("2 renewals left") && page.shows(#"id="renew-all""#))
            let (duneLoan, emmaLoan) = (try Self.loanID(of: "Dune", in: page.text), try Self.loanID(of: Self.escaped, in: page.text))

            let renewed = try await ada.post("/loans/\(duneLoan)/renew", [])
            #expect(renewed.status == .seeOther && renewed.headers[.location] == "/loans")
            let after = try await ada.follow(renewed)
            #expect(after.shows("You renewed “Dune”: it is now due on") && after.shows("1 renewal left"))
            #expect(after.shows(#"<div id="flash" class="flash" role="status">"#))

            let returned = try await ada.post("/loans/\(emmaLoan)/return", [])
            let back = try await ada.follow(returned)
            #expect(back.shows("You returned “\(Self.escaped)”. Thank you."))
            #expect(back.shows(#"<tr class="loan returned" data-id="\#(emmaLoan)">"#))
            #expect(!back.shows(#"action="/loans/\#(emmaLoan)/return""#), "a returned loan offers no Return")

            let all = try await ada.post("/loans/renew-all", [])
            #expect(all.status == .seeOther)
            let renewedAll = try await ada.follow(all)
            #expect(renewedAll.shows("You renewed “Dune”.") && renewedAll.shows("“Dune” was renewed twice already, the most allowed"))
            #expect(!renewedAll.shows(#"id="renew-all""#), "nothing left to renew")
            let again = try await ada.follow(try await ada.post("/loans/renew-all", []))
            #expect(again.shows(#"class="flash refused""#) && again.shows("was renewed twice already"))
            #expect(try await ada.post("/loans/not-a-loan/renew", []).status == .notFound)
        }
    }

    @Test func aRenewalIsRefusedInWordsWhileSomeoneWaits() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let bob = try await api.signUpMember("bob@example.org")
            try await ada.get("/books")
            try await ada.post("/loans", [("book", dune)])
            let hold = try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(dune)"}"#, token: bob)
            #expect(hold.status == .created, "\(hold.text)")
            let page = try await ada.get("/loans")
            let loan = try Self.loanID(of: "Dune", in: page.text)
            #expect(page.shows("another member is waiting for the book"), "why not, before anyone asks")
            #expect(!page.shows(#"action="/loans/\#(loan)/renew""#) && !page.shows(#"id="renew-all""#))
            let refused = try await ada.post("/loans/\(loan)/renew", [])
            #expect(refused.status == .seeOther && refused.headers[.location] == "/loans")
            let shown = try await ada.follow(refused)
            #expect(shown.shows(#"class="flash refused" role="alert""#))
            #expect(shown.shows("“Dune” cannot be renewed: another member is waiting for the book; please return it by its due date."))
        }
    }

    @Test func anOverdueLoanIsFlaggedAndCannotBeRenewed() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let dune = try await api.addBook("Dune")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/books")
            try await ada.post("/loans", [("book", dune)])
            #expect(!(try await ada.get("/loans")).shows(#"class="overdue""#))
            clock.advance(by: 15 * 24 * 3600)
            let page = try await ada.get("/loans")
            #expect(page.shows(#"<strong class="overdue">Overdue</strong>"#))
            #expect(page.shows("is overdue, so it cannot be renewed: please return it."))
            let emma = try await api.addBook("Emma")
            try await ada.get("/books")
            let refused = try await ada.follow(try await ada.post("/loans", [("book", emma), ("back", "/books")]))
            #expect(
                refused.shows(#"class="flash refused""#) && refused.shows("Please return your overdue book first: “Dune” (due "),
                "\(refused.text)")
        }
    }

    @Test func nobodyActsOnAnotherMembersLoansHoldsOrNotices() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let emma = try await api.addBook("Emma")
            let adaToken = try await api.signUpMember("ada@example.org")
            let ada = Browser(api, session: adaToken)
            let bob = Browser(api, session: try await api.signUpMember("bob@example.org"))
            let cyToken = try await api.signUpMember("cy@example.org")
            try await ada.get("/books")
            try await ada.post("/loans", [("book", dune)])
            let loan = try Self.loanID(of: "Dune", in: try await ada.get("/loans").text)
            // Ada waits for Emma behind Cy, then Cy gives it back: Ada has a ready hold and a notice.
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(emma)"]}"#, token: cyToken)
            try await ada.post("/holds", [("book", emma)])
            let cysLoan = try #require(
                ((try await api.send(.get, "/api/v1/me/loans", token: cyToken).object["items"] as? [[String: Any]])?.first?["id"])
                    as? String)
            #expect(try await api.send(.post, "/api/v1/loans/\(cysLoan)/return", token: cyToken).status == .ok)
            let holds = try await ada.get("/holds")
            let hold = try Self.attribute("data-id", after: #"<tr class="hold ready""#, in: holds.text)
            let notice = try Self.attribute("action", after: #"<li class="notice unread""#, in: try await ada.get("/notices").text)

            try await bob.get("/loans")
            #expect(!(try await bob.get("/loans")).shows("Dune"))
            #expect(!(try await bob.get("/holds")).shows("Emma"))
            #expect(!(try await bob.get("/notices")).shows("Emma"))
            #expect(try await bob.post("/loans/\(loan)/renew", []).status == .notFound)
            #expect(try await bob.post("/loans/\(loan)/return", []).status == .notFound)
            #expect(try await bob.post("/holds/\(hold)/cancel", []).status == .notFound)
            #expect(try await bob.post(notice, []).status == .notFound)
            // Ada's things are as they were.
            #expect((try await ada.get("/loans")).shows(#"action="/loans/\#(loan)/return""#))
            #expect((try await ada.get("/holds")).shows(#"<tr class="hold ready""#))
            #expect((try await ada.get("/notices")).shows(#"<li class="notice unread""#))
        }
    }

    @Test func myHoldsShowThePlaceInLineAndAReadyCopyToBorrow() async throws {
        try await withAPI { api in
            let dune = try await api.addBook(Self.hostile)
            let cyToken = try await api.signUpMember("cy@example.org")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let bob = Browser(api, session: try await api.signUpMember("bob@example.org"))
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: cyToken)
            #expect((try await ada.get("/holds")).shows("You are not waiting for any book."))
            try await ada.post("/holds", [("book", dune)])
            try await bob.get("/books")
            try await bob.post("/holds", [("book", dune)])
            let waiting = try await bob.get("/holds")
            #expect(
                waiting.status == .ok && waiting.shows("Number 2 in line") && waiting.shows(Self.escaped) && !waiting.shows(Self.hostile))
            #expect(waiting.shows(#"class="holds stack-on-phone""#) && waiting.shows(#"<th scope="col">Where you are</th>"#))
            #expect((try await ada.get("/holds")).shows("Next in line"))

            let cysLoan = try #require(
                ((try await api.send(.get, "/api/v1/me/loans", token: cyToken).object["items"] as? [[String: Any]])?.first?["id"])
                    as? String)
            _ = try await api.send(.post, "/api/v1/loans/\(cysLoan)/return", token: cyToken)
            let ready = try await ada.get("/holds")
            #expect(ready.shows(#"<tr class="hold ready""#) && ready.shows("Ready for pickup until "))
            #expect(ready.shows(#"<input type="hidden" name="book" value="\#(dune)">"#), "a Borrow form for the copy kept")
            #expect((try await bob.get("/holds")).shows("Next in line"))

            let borrowed = try await ada.post("/loans", [("book", dune), ("back", "/holds")])
            #expect(borrowed.headers[.location] == "/loans")
            #expect((try await ada.get("/loans")).shows(Self.escaped))
            #expect((try await ada.get("/holds")).shows("You are not waiting for any book."))

            let hold = try Self.attribute("data-id", after: #"<tr class="hold""#, in: try await bob.get("/holds").text)
            let cancelled = try await bob.post("/holds/\(hold)/cancel", [])
            #expect(cancelled.status == .seeOther && cancelled.headers[.location] == "/holds")
            let after = try await bob.follow(cancelled)
            #expect(after.shows("You left the waiting list for “\(Self.escaped)”.") && after.shows("You are not waiting for any book."))
            #expect(try await bob.post("/holds/nonsense/cancel", []).status == .notFound)
        }
    }

    @Test func noticesAreListedUnreadMarkedAndMarkedRead() async throws {
        try await withAPI { api in
            let first = try await api.addBook(Self.hostile)
            let second = try await api.addBook("Emma")
            let cyToken = try await api.signUpMember("cy@example.org")
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            #expect((try await ada.get("/notices")).shows("No notices yet."))
            _ = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(first)","\#(second)"]}"#, token: cyToken)
            try await ada.get("/books")
            try await ada.post("/holds", [("book", first)])
            try await ada.post("/holds", [("book", second)])
            let cysLoans = try #require(try await api.send(.get, "/api/v1/me/loans", token: cyToken).object["items"] as? [[String: Any]])
            for loan in cysLoans { _ = try await api.send(.post, "/api/v1/loans/\(loan["id"] as! String)/return", token: cyToken) }

            let page = try await ada.get("/notices")
            #expect(page.shows(#"<span id="unread-count" class="badge" aria-label="2 unread">2</span>"#))
            #expect(page.shows("2 unread") && page.shows(#"id="read-all""#))
            #expect((try await ada.get("/books")).shows(#"aria-label="2 unread">2</span>"#), "the header counts them on every page")
            #expect(page.shows("A copy of “\(Self.escaped)” is kept for you: ready for pickup until") && !page.shows(Self.hostile))
            let action = try Self.attribute("action", after: #"<li class="notice unread""#, in: page.text)
            let read = try await ada.post(action, [])
            #expect(read.status == .seeOther && read.headers[.location] == "/notices")
            let one = try await ada.follow(read)
            #expect(one.shows("1 unread") && one.shows(#"aria-label="1 unread">1</span>"#))
            let all = try await ada.follow(try await ada.post("/notices/read-all", []))
            #expect(all.shows("Every notice is marked read.") && all.shows("Nothing unread") && !all.shows(#"class="notice unread""#))
            #expect(try await ada.post("/notices/nothing-here/read", []).status == .notFound)
        }
    }

    @Test func bookmarksListCatalogueBooksAndWorksSortedAndRemovable() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/ok"; $0.coversURL = "https://covers.example"
            }) { api in
                let book = try await api.addBook(Self.hostile)
                let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
                #expect((try await ada.get("/bookmarks")).shows("Your reading list is empty."))
                try await ada.post("/bookmarks", [("book", book)])
                try await ada.post("/bookmarks", [("key", "OL27448W")])
                let page = try await ada.get("/bookmarks")
                #expect(page.status == .ok && page.shows("2 on your reading list"))
                #expect(page.shows(#"<a class="book-title" href="/books/\#(book)">\#(Self.escaped)</a>"#) && !page.shows(Self.hostile))
                #expect(page.shows(#"<li class="bookmark" data-key="OL27448W">"#) && page.shows("https://covers.example/"))
                let newest = try #require(page.text.range(of: "OL27448W")).lowerBound
                #expect(newest < (try #require(page.text.range(of: "book:\(book)")).lowerBound), "newest first")
                let byTitle = try await ada.get("/bookmarks?sort=title")
                #expect(byTitle.shows(#"<option value="title" selected>"#))
                #expect(
                    try #require(byTitle.text.range(of: "book:\(book)")).lowerBound
                        < (try #require(byTitle.text.range(of: "OL27448W")).lowerBound),
                    "“<” sorts before letters")
                let removed = try await ada.post("/bookmarks/remove", [("key", "OL27448W"), ("back", "/bookmarks?sort=title")])
                #expect(removed.status == .seeOther && removed.headers[.location] == "/bookmarks?sort=title")
                let after = try await ada.follow(removed)
                #expect(after.shows("Bookmark removed.") && !after.shows(#"data-key="OL27448W""#) && after.shows("book:\(book)"))
                let bob = Browser(api, session: try await api.signUpMember("bob@example.org"))
                #expect((try await bob.get("/bookmarks")).shows("Your reading list is empty."))
            }
        }
    }

    @Test func aLongReadingListIsPaged() async throws {
        try await withAPI { api in
            let ada = Browser(api, session: try await api.signUpMember("ada@example.org"))
            try await ada.get("/bookmarks")
            #expect(!(try await ada.get("/bookmarks")).shows(#"class="pager""#), "one page: no page links")
            for number in 1...21 { try await ada.post("/bookmarks", [("book", try await api.addBook("Book \(number)"))]) }
            let first = try await ada.get("/bookmarks")
            #expect(first.shows("21 on your reading list · showing 1–20 of 21"))
            #expect(first.shows(#"<a rel="next" href="/bookmarks?offset=20">"#))
            let second = try await ada.get("/bookmarks?offset=20")
            #expect(second.shows(#"<a rel="prev" href="/bookmarks">"#) && second.shows(">Book 1</a>") && !second.shows(">Book 21</a>"))
        }
    }

    /// The `data-id` of the row of the loan of `title` (as the page prints it).
    static func loanID(of title: String, in html: String) throws -> String {
        let rows = html.components(separatedBy: #"<tr class="loan" data-id=""#).dropFirst()
        let row = try #require(rows.first { $0.contains(">\(title)</a>") }, "no loan row for \(title)")
        return String(row.prefix { $0 != "\"" })
    }

    /// The value of `attribute` in the first element that starts with `start`.
    static func attribute(_ attribute: String, after start: String, in html: String) throws -> String {
        let from = try #require(html.range(of: start), "no \(start)").lowerBound
        let value = try #require(html[from...].range(of: #"\#(attribute)=""#), "no \(attribute) after \(start)").upperBound
        return String(html[value...].prefix { $0 != "\"" })
    }

    /// The text right after `start`, up to the next tag.
    static func text(of start: String, in html: String) throws -> String {
        let from = try #require(html.range(of: start), "no \(start)").upperBound
        return String(html[from...].prefix { $0 != "<" })
    }
}
