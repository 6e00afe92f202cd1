import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// The front desk's lists, each read in its own section of the page: who has which book, what is
/// overdue, the copies to set aside for holds; and lending to a member found by email.
@Suite("Web: the front desk's lists")
struct WebLibrarianDeskTests {
    @Test func theDeskLendsToAMemberFoundByEmail() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            _ = try await api.signUpMember("ada@example.org")
            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/desk")
            let lent = try await librarian.post("/desk/lend", [("member", "ada@example.org"), ("book", dune)])
            #expect(lent.status == .seeOther && lent.headers[.location] == "/desk")
            let after = try await librarian.follow(lent)
            #expect(after.shows("Lent 1 book to") && !after.shows(#"class="flash refused""#), "\(after.text)")
            #expect(try Self.section("who-has-what", in: after.text).contains(">Dune</a>"))
            let loans = try await api.send(.get, "/api/v1/loans?member=ada@example.org").object
            #expect(loans["total"] as? Int == 1)
        }
    }

    /// Found by an outside walk: words the shelf's search refuses made a whole error page saying
    /// "Q: 'bogus:' is not a field…", the search's internal name for the field.
    @Test func wordsTheShelfCannotSearchAreSaidBesideTheFindField() async throws {
        try await withAPI { api in
            _ = try await api.addBook("Dune")
            let librarian = Browser(api, session: api.librarianToken)
            for find in ["bogus:x", "%00"] {
                let page = try await librarian.get("/desk?find=\(find)")
                #expect(page.status == .badRequest && page.shows(#"<p class="field-error" id="find-error">"#), "\(find): \(page.text)")
                #expect(!page.shows("Q:") && page.shows(">Dune</"), "\(find): the shelf is shown whole")
            }
        }
    }

    /// Found by an outside test: the member field's label offers a username, but the desk read
    /// anything without an `@` as a card number, and the loans list refused it.
    @Test func theDeskFindsAMemberByUsernameAsItsLabelSays() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.patch, "/api/v1/me", json: #"{"username":"lovelace"}"#, token: ada).status == .ok)
            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/desk")
            let lent = try await librarian.post("/desk/lend", [("member", "lovelace"), ("book", dune)])
            #expect(lent.status == .seeOther, "\(lent.text)")
            let after = try await librarian.follow(lent)
            #expect(after.shows("Lent 1 book to") && !after.shows(#"class="flash refused""#), "\(after.text)")
            let listed = try await librarian.get("/desk?member=lovelace")
            #expect(listed.status == .ok && listed.shows(">Dune</a>"), "\(listed.text)")
            #expect(try await api.send(.get, "/api/v1/loans?member=lovelace").object["total"] as? Int == 1)
            let nobody = try await librarian.post("/desk/lend", [("member", "babbage"), ("book", dune)])
            #expect(nobody.status == .notFound || nobody.shows("babbage"), "\(nobody.status) \(nobody.text)")
            let walkIn = try await api.send(.get, "/api/v1/loans?member=Mrs%20Hudson")
            #expect(walkIn.status == .badRequest && walkIn.text.contains("library card number or username"), "\(walkIn.text)")
        }
    }

    /// Noticed in a review: a walk-in's name in a desk field was refused with the API's advice
    /// ("give the name as borrower"), a parameter no page has. The pages name their own forms.
    @Test func aWalkInsNameInAMemberFieldPointsToTheDesksOwnForms() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let librarian = Browser(api, session: api.librarianToken)
            for language in ["en", "fr"] {
                let headers: HTTPFields = [.acceptLanguage: language]
                try await librarian.get("/desk", headers: headers)
                let lend = try await librarian.post("/desk/lend", [("member", "Mrs Hudson"), ("book", dune)], headers: headers)
                let filter = try await librarian.get("/desk?member=Mrs%20Hudson", headers: headers)
                for page in [lend, filter] {
                    #expect(page.status == .badRequest, "\(page.status)")
                    #expect(!page.shows("borrower instead") && !page.shows("dans borrower"), "\(page.text)")
                    #expect(
                        page.shows(language == "en" ? "through the walk-in checkout" : "par le prêt à un emprunteur de passage"),
                        "\(page.text)")
                }
                #expect(filter.shows(language == "en" ? "email address, username or id" : "nom d’utilisateur ou identifiant"))
            }
        }
    }

    @Test func theOverdueSectionListsOnlyTheLoansPastTheirDate() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let (dune, emma) = (try await api.addBook("Dune"), try await api.addBook("Emma"))
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).status == .created)
            let librarian = Browser(api, session: api.librarianToken)
            let early = try Self.section("overdue", in: try await librarian.get("/desk").text)
            #expect(early.contains("Nothing is overdue.") && !early.contains("Dune"))
            clock.advance(by: 15 * 24 * 3600)  // past Dune's 14 days
            #expect(try await api.send(.post, "/api/v1/books/\(emma)/checkout", json: #"{"borrowerName":"Walter"}"#).status == .created)
            let desk = try await librarian.get("/desk")
            let late = try Self.section("overdue", in: desk.text)
            #expect(late.contains(#"<tr class="loan overdue""#) && late.contains(">Dune</a>"), "\(late)")
            #expect(!late.contains("Emma") && !late.contains("Nothing is overdue."), "a loan still within its days is not overdue")
            #expect(try Self.section("who-has-what", in: desk.text).contains(">Emma</a>"), "it is among the loans")
        }
    }

    /// Dune's one copy lent to Ada, and Bob Baker waiting for it: the book, both tokens and Ada's loan.
    static func duneWithBobWaiting(_ api: APIClient) async throws -> (dune: String, ada: String, bob: String, loan: String) {
        let dune = try await api.addBook("Dune")
        let ada = try await api.signUpMember("ada@example.org")
        let bob = try await api.signUpMember("bob@example.org", named: "Bob Baker")
        #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).status == .created)
        #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(dune)"}"#, token: bob).status == .created)
        let loan = try #require(
            ((try await api.send(.get, "/api/v1/me/loans", token: ada).object["items"] as? [[String: Any]])?.first?["id"]) as? String)
        return (dune, ada, bob, loan)
    }

    @Test func theCopiesToSetAsideAreListedWithWhoFor() async throws {
        try await withAPI { api in
            let (dune, ada, bob, loan) = try await Self.duneWithBobWaiting(api)
            let librarian = Browser(api, session: api.librarianToken)
            let before = try Self.section("set-aside", in: try await librarian.get("/desk").text)
            #expect(before.contains("No copy is waiting to be picked up.") && !before.contains("Dune"))

            #expect(try await api.send(.post, "/api/v1/loans/\(loan)/return", token: ada).status == .ok)
            let after = try Self.section("set-aside", in: try await librarian.get("/desk").text)
            #expect(after.contains(#"<tr class="hold ready""#) && after.contains(#"<a href="/desk?book=\#(dune)">Dune</a>"#), "\(after)")
            #expect(after.contains("<td>Bob Baker</td>") && !after.contains("No copy is waiting"))

            // Found by an outside test: the copy kept for Bob could not be lent to him from the desk's
            // pages (the shelf leaves it out). Its row lends it to him; then nothing is kept.
            let bobID = try #require(try await api.send(.get, "/api/v1/me", token: bob).object["id"] as? String)
            let lend = try await librarian.post("/desk/lend", [("member", bobID), ("book", dune)])
            #expect(lend.status == .seeOther, "\(lend.text)")
            let bobs = try await api.send(.get, "/api/v1/me/loans", token: bob).object["items"] as? [[String: Any]]
            #expect(bobs?.compactMap { $0["bookTitle"] as? String } == ["Dune"])
            let done = try Self.section("set-aside", in: try await librarian.get("/desk").text)
            #expect(done.contains("No copy is waiting to be picked up."), "\(done)")
        }
    }

    /// Found by an outside walk at the desk: a return that set the copy aside for a member who
    /// waited said nothing of it, and the copy went back on the shelf.
    @Test func aReturnAtTheDeskSaysWhomTheCopyIsSetAsideFor() async throws {
        try await withAPI { api in
            let loan = try await Self.duneWithBobWaiting(api).loan
            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/desk")
            let returned = try await librarian.follow(try await librarian.post("/desk/return", [("loan", loan), ("back", "/desk")]))
            #expect(returned.shows("is back from") && returned.shows("Set it aside for Bob Baker, who waited for it."), "\(returned.text)")
            // A second click: said, and nothing said of the copy (found by an outside walk)
            let again = try await librarian.follow(try await librarian.post("/desk/return", [("loan", loan), ("back", "/desk")]))
            #expect(again.shows("“Dune” had been returned already, on ") && !again.shows("is back from"), "\(again.text)")
        }
    }

    /// Found by an outside walk at the desk: a loan could be returned from the desk's list but not
    /// renewed (a walk-in borrower, who has no account, could not be renewed from a page at all).
    @Test func theDeskRenewsALoanOrSaysWhyNot() async throws {
        try await withAPI { api in
            let (dune, _, _, heldLoan) = try await Self.duneWithBobWaiting(api)
            let emma = try await api.addBook("Emma")
            let walkIn = try await api.send(.post, "/api/v1/books/\(emma)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#).object
            let hudsons = try #require(walkIn["id"] as? String)
            let librarian = Browser(api, session: api.librarianToken)
            let desk = try await librarian.get("/desk")
            #expect(desk.text.contains(#"<form class="renew" method="post" action="/desk/renew">"#), "\(desk.text)")

            // Mrs Hudson's Emma: renewed, and the list says the new due date
            let renewed = try await librarian.follow(try await librarian.post("/desk/renew", [("loan", hudsons), ("back", "/desk")]))
            #expect(renewed.shows("“Emma” renewed for Mrs Hudson: now due on "), "\(renewed.text)")
            let loans = try await api.send(.get, "/api/v1/loans?book=\(emma)").object["items"] as? [[String: Any]]
            #expect(loans?.first?["renewals"] as? Int == 1)
            // Ada's Dune, which Bob waits for: refused, with the reason, and nothing changed
            let refused = try await librarian.follow(try await librarian.post("/desk/renew", [("loan", heldLoan), ("back", "/desk")]))
            #expect(refused.shows("“Dune” cannot be renewed: another member is waiting for the book"), "\(refused.text)")
            let held = try await api.send(.get, "/api/v1/loans?book=\(dune)").object["items"] as? [[String: Any]]
            #expect(held?.first?["renewals"] as? Int == 0)
            // A loan that is not one: said, not a crash
            let unknown = try await librarian.follow(try await librarian.post("/desk/renew", [("loan", "nope"), ("back", "/desk")]))
            #expect(unknown.status == .ok && unknown.shows("There is no loan with id &#39;nope&#39;."), "\(unknown.text)")
        }
    }

    /// Found by an outside test: after a refused lend, the page's Return buttons came back to the
    /// lend's own address, a "Page not found".
    @Test func aReturnFromThePageOfARefusedLendComesBackToTheDesk() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let ada = try await api.signUpMember("ada@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(dune)"]}"#, token: ada).status == .created)
            let librarian = Browser(api, session: api.librarianToken)
            // Dune's one copy is out: lending it again is refused, and the desk is shown with the refusal.
            #expect(try await librarian.get("/desk").status == .ok)
            let refused = try await librarian.post("/desk/lend", [("member", "ada@example.org"), ("book", dune)])
            #expect(refused.status == .conflict, "\(refused.status)")
            #expect(refused.text.contains(#"name="back" value="/desk""#), "\(refused.text)")
            #expect(!refused.text.contains(#"name="back" value="/desk/lend""#))
        }
    }

    /// The HTML of the page's `<section id="…">`.
    static func section(_ id: String, in html: String) throws -> String {
        let start = try #require(html.range(of: #"<section id="\#(id)""#), "no section \(id)").lowerBound
        let end = try #require(html[start...].range(of: "</section>"), "section \(id) not closed").upperBound
        return String(html[start..<end])
    }
}
