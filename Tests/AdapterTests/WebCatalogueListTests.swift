import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing
import Wording

/// The catalogue's list as readers and librarians see it (each book's availability, waiting list
/// and last checkout, the pages), and withdrawing books from it: one, the page's all, every book.
@Suite("Web: the catalogue's list and withdrawing books")
struct WebCatalogueListTests {
    @Test func eachBookSaysWhatIsOnTheShelfWhoWaitsAndWhoHadItLast() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let (dune, emma) = (try await api.addBook("Dune", copies: 2), try await api.addBook("Emma"))
            let ada = try await api.signUpMember("ada@example.org", named: "Ada Lovelace")
            let bob = try await api.signUpMember("bob@example.org")
            let loans = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)","\#(emma)"]}"#, token: ada)
            #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(emma)"}"#, token: bob).status == .created)
            let day = Formats(.english).day(clock.now())

            let librarian = try await Browser(api, session: api.librarianToken).get("/books")
            let duneCell = try Self.cell(dune, in: librarian.text)
            #expect(duneCell.contains(#"<p class="availability yes">1 of 2 available</p>"#), "\(duneCell)")
            #expect(duneCell.contains("Last checked out by Ada Lovelace on \(day)"))
            let emmaCell = try Self.cell(emma, in: librarian.text)
            #expect(emmaCell.contains(#"<p class="availability no">0 of 1 available · 1 waiting</p>"#), "\(emmaCell)")
            // The borrower's name is personal: a visitor sees only that the book went out, and when.
            let visitor = try Self.cell(dune, in: try await Browser(api).get("/books").text)
            #expect(visitor.contains("Last checked out on \(day)") && !visitor.contains("Ada"), "\(visitor)")

            // Emma back: its copy is kept for bob, who waits no more (an outside walk saw "1 waiting" then).
            let body = try JSONSerialization.jsonObject(with: Data(loans.text.utf8))
            let lent = (body as? [[String: Any]]) ?? ((body as? [String: Any])?["loans"] as? [[String: Any]]) ?? []
            let emmaLoan = try #require(lent.first { $0["bookId"] as? String == emma }?["id"] as? String, "\(loans.text)")
            #expect(try await api.send(.post, "/api/v1/loans/\(emmaLoan)/return", token: ada).status == .ok)
            let kept = try Self.cell(emma, in: try await Browser(api).get("/books").text)
            #expect(kept.contains(#"<p class="availability no">0 of 1 available</p>"#), "\(kept)")
        }
    }

    @Test func aLongCatalogueIsPagedKeepingTheSort() async throws {
        try await withAPI { api in
            for number in 1...21 { _ = try await api.addBook("Book \(number)") }
            let browser = Browser(api)
            let first = try await browser.get("/books?sort=oldest")
            #expect(first.shows(#"<p id="book-count" class="count" aria-live="polite">21 books · showing 1–20 of 21</p>"#))
            #expect(first.shows(#"<a rel="next" id="next-page" href="/books?sort=oldest&amp;offset=20">"#) && !first.shows(#"rel="prev""#))
            #expect(first.shows(">Book 1</a>") && !first.shows(">Book 21</a>"))
            let second = try await browser.get("/books?sort=oldest&offset=20")
            #expect(second.shows("showing 21–21 of 21") && second.shows(#"<a rel="prev" href="/books?sort=oldest">"#))
            #expect(second.shows(">Book 21</a>") && !second.shows(">Book 1</a>") && !second.shows(#"rel="next""#))
        }
    }

    @Test func oneBookIsWithdrawnFromItsPage() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let librarian = Browser(api, session: api.librarianToken)
            let page = try await librarian.get("/books/\(dune)")
            #expect(page.shows(#"action="/books/\#(dune)/delete""#) && page.shows("data-confirm="))
            let done = try await librarian.post("/books/\(dune)/delete", [])
            #expect(done.status == .seeOther && done.headers[.location] == "/books")
            #expect(try await librarian.follow(done).shows("Withdrew 1 book."))
            #expect(try await librarian.get("/books/\(dune)").status == .notFound)
        }
    }

    @Test func selectAllTicksEveryBookOfThePageInTheDeleteForm() async throws {
        try await withAPI { api in
            let ids = [try await api.addBook("Dune"), try await api.addBook("Emma"), try await api.addBook("Gone")]
            let librarian = Browser(api, session: api.librarianToken)
            let page = try await librarian.get("/books")
            let form = try #require(page.text.components(separatedBy: #"<form id="bulk-delete""#).dropFirst().first)
            let inForm = form.components(separatedBy: "</form>")[0]
            #expect(inForm.contains(#"<input type="checkbox" id="select-all" data-select-all="book">"#))
            for id in ids { #expect(inForm.contains(#"name="book" value="\#(id)""#), "\(id)") }
            // What a browser sends once "select all" ticked them all.
            let done = try await librarian.post("/books/delete", ids.map { ("book", $0) } + [("back", "/books")])
            #expect(try await librarian.follow(done).shows("Withdrew 3 books."))
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 0)
        }
    }

    @Test func deletingEveryBookKeepsTheOneOnLoanAndNamesIt() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Dune")
            let lent = try await api.addBook("Lent Out")
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(lent)"]}"#, token: ada).status == .created)
            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/books/delete-all")
            let done = try await librarian.post("/books/delete-all", [("confirm", "DELETE ALL")])
            #expect(done.status == .seeOther && done.headers[.location] == "/books")
            let after = try await librarian.follow(done)
            #expect(after.shows(#"class="flash refused""#) && after.shows("Withdrew 1 book."))
            #expect(after.shows("Not withdrawn: “Lent Out” has 1 copy on loan"), "\(after.text)")
            let left = try await api.send(.get, "/api/v1/books").object
            #expect(left["total"] as? Int == 1 && (left["items"] as? [[String: Any]])?.first?["id"] as? String == lent)
        }
    }

    /// The HTML of the catalogue's cell of the book `id`.
    static func cell(_ id: String, in html: String) throws -> String {
        let start = try #require(html.range(of: #"<article class="book" data-id="\#(id)">"#), "no cell for \(id)").lowerBound
        let end = try #require(html[start...].range(of: "</article>")).upperBound
        return String(html[start..<end])
    }
}
