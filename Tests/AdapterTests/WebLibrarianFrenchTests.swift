import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// The librarian's pages read in French (the browser asks for `fr-CA`): French headings, labels,
/// dates and counts, and no English word left in a page's own content (the `<main>` element; the
/// frame around it and the messages shown above it are tested with their own pages).
@Suite("Web: the librarian's pages in French")
struct WebLibrarianFrenchTests {
    static let french: HTTPFields = [.acceptLanguage: "fr-CA,fr;q=0.9,en;q=0.5"]
    static let nbsp = "\u{A0}"

    /// English words a French page must not show (whole words, as written). Field names in a
    /// history (`copies: 2`) and event names are identifiers and stay, so `copies` is not listed.
    static let englishWords: Set<String> = [
        "Add", "Delete", "Members", "Member", "Lend", "Borrower", "Borrow", "Save", "Search", "Show", "Book", "Books", "Copies",
        "Title", "Authors", "Publisher", "Cancel", "Find", "Return", "Due", "Overdue", "History", "Verify", "Previous", "Next",
        "Waiting", "Name", "Role", "Select", "Type", "Import", "Password", "Nothing", "Nobody", "the", "and", "of", "is", "by",
        "for", "from", "with", "books", "shelf", "member", "overdue", "walk",
    ]

    /// The English words left in the visible text of `html`'s `<main>`: its text and the texts of
    /// its placeholders, labels and confirmations; `<code>` (event names, reset codes) left out.
    static func englishLeft(in html: String) -> [String] {
        guard let start = html.range(of: "<main"), let end = html.range(of: "</main>", range: start.upperBound..<html.endIndex) else {
            return ["<no main>"]
        }
        var main = String(html[start.lowerBound..<end.lowerBound])
        main = main.replacing(/<code[^>]*>[^<]*<\/code>/, with: "")
        let attributes = main.matches(of: /(?:placeholder|aria-label|data-confirm|title|alt)="([^"]*)"/).map { String($0.output.1) }
        let text = (main.replacing(/<[^>]*>/, with: " ") + " " + attributes.joined(separator: " "))
            .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'")
        let words = text.split { !$0.isLetter }.map(String.init)
        return Array(Set(words).intersection(englishWords)).sorted()
    }

    @Test func everyLibrarianPageIsInFrenchWithNoEnglishLeft() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let dune = try await api.addBook("Dune", copies: 1, author: "Frank Herbert")
            let prince = try await api.addBook("Le Petit Prince", copies: 2, author: "Antoine de Saint-Exupéry")
            let emma = try await api.addBook("Emma", copies: 1, author: "Jane Austen")
            let ada = try await api.signUpMember("ada@example.org")
            let bob = try await api.signUpMember("bob@example.org")
            for book in [dune, emma] {
                #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(book)"]}"#, token: ada).status == .created)
                #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(book)"}"#, token: bob).status == .created)
            }
            let librarian = Browser(api, session: api.librarianToken)

            // A walk-in checkout and a return at the desk, said in French.
            try await librarian.get("/desk", headers: Self.french)
            let walkIn = try await librarian.post(
                "/desk/walk-in", [("book", prince), ("name", "Walter"), ("back", "/desk")], headers: Self.french)
            let lent = try await librarian.get(try #require(walkIn.headers[.location]), headers: Self.french)
            #expect(lent.shows("«\(Self.nbsp)Le Petit Prince\(Self.nbsp)» prêté à Walter, à rendre le "), "\(lent.text)")
            let loans = try await api.send(.get, "/api/v1/loans?member=ada@example.org").object["items"] as? [[String: Any]]
            let emmaLoan = try #require(loans?.first { $0["bookId"] as? String == emma }?["id"] as? String)
            let returned = try await librarian.post("/desk/return", [("loan", emmaLoan), ("back", "/desk")], headers: Self.french)
            #expect(try await librarian.get("/desk", headers: Self.french).shows("«\(Self.nbsp)Emma\(Self.nbsp)» est rendu par"))
            #expect(returned.status == .seeOther)
            clock.advance(by: 20 * 24 * 3600)  // Dune and Walter's loan overdue, within the session's 30 days

            let pages: [(path: String, says: [String])] = [
                ("/books", ["<h1>Catalogue</h1>", "Ajouter un livre", "3 livres", "Tout sélectionner sur cette page"]),
                ("/books?q=Dune", ["1 livre trouvé"]),
                ("/books?q=zzzz", ["Aucun livre ne correspond.", "cherchez dans Open Library"]),
                ("/books/new", ["<h1>Ajouter un livre</h1>", "Exemplaires", "Ajouter le livre", "Séparez les auteurs par des virgules."]),
                ("/books/\(dune)/edit", ["Modifier «\(Self.nbsp)Dune\(Self.nbsp)»", "Enregistrer les modifications"]),
                ("/books/import", ["Importer un livre d’Open Library", "Auteurs (facultatif)"]),
                ("/books/delete-all", ["Retirer tous les livres", "<strong>TOUT RETIRER</strong>"]),
                (
                    "/desk",
                    [
                        "<h1>Comptoir de prêt</h1>", "Prêter à un membre", "(de passage)", "en retard", "(1 en rayon)",
                        "Exemplaires à mettre de côté", "septembre 2026", "Emprunteur",
                    ]
                ),
                ("/desk?book=\(dune)", ["File d’attente pour", "En attente", "Rang"]),
                ("/members", ["<h1>Membres</h1>", "3 comptes", "Nommer", "(vous)", "Bibliothécaire"]),
                ("/audit", ["Vérifier le journal", "Historique d’un livre ou d’un membre", "Qui avait quel livre"]),
                ("/audit/history?book=\(dune)", ["Historique de «\(Self.nbsp)Dune\(Self.nbsp)»", "Retour au journal"]),
                ("/audit/as-of?at=2030-01-01T00:00&view=loans", ["Choisir un autre moment", "À rendre le", "En retard"]),
                ("/audit/as-of?at=2030-01-01T00:00&view=catalogue", ["Exemplaires", "Prêtés", "Le Petit Prince"]),
                ("/audit/as-of?at=2000-01-01T00:00&view=loans", ["Aucun livre n’était prêté."]),
            ]
            for (path, says) in pages {
                let page = try await librarian.get(path, headers: Self.french)
                #expect(page.status == .ok, "\(path)")
                for text in says { #expect(page.shows(text), "\(path) does not say \(text)") }
                #expect(Self.englishLeft(in: page.text).isEmpty, "\(path) still says \(Self.englishLeft(in: page.text))")
            }
        }
    }

    @Test func refusedFormsAndWhatWasDoneAreSaidInFrench() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            _ = try await api.signUpMember("ada@example.org")
            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/books/new", headers: Self.french)
            let refused = try await librarian.post("/books", [("title", ""), ("authors", ""), ("copies", "x")], headers: Self.french)
            #expect(refused.status == .badRequest && refused.shows(#"id="title-error""#))
            #expect(Self.englishLeft(in: refused.text).isEmpty, "still says \(Self.englishLeft(in: refused.text))")

            try await librarian.get("/desk", headers: Self.french)
            let nobody = try await librarian.post("/desk/lend", [("member", "12345"), ("book", dune)], headers: Self.french)
            #expect(nobody.status == .badRequest && nobody.shows(#"id="member-error""#))
            #expect(Self.englishLeft(in: nobody.text).isEmpty, "still says \(Self.englishLeft(in: nobody.text))")

            let users = try await api.send(.get, "/api/v1/users").object["items"] as? [[String: Any]]
            let ada = try #require(users?.first { $0["email"] as? String == "ada@example.org" }?["id"] as? String)
            try await librarian.get("/members", headers: Self.french)
            let promoted = try await librarian.post("/members/\(ada)/role", [("role", "librarian")], headers: Self.french)
            let said = try await librarian.get(try #require(promoted.headers[.location]), headers: Self.french)
            #expect(said.shows(#"id="flash""#) && !said.shows("is now a librarian"), "\(said.text)")
            #expect(said.shows("Rendre <span"), "ada is a librarian now: her button takes it back")
        }
    }

    @Test func theFrenchPhraseClearsTheCatalogueAndAMemberBorrowsInFrench() async throws {
        try await withAPI { api in
            let dune = try await api.addBook("Dune")
            let emma = try await api.addBook("Emma")
            let member = Browser(api, session: try await api.signUpMember("ada@example.org"))
            let catalogue = try await member.get("/books", headers: Self.french)
            #expect(catalogue.shows("Emprunter les livres sélectionnés") && Self.englishLeft(in: catalogue.text).isEmpty)
            let borrowed = try await member.post("/loans", [("book", dune), ("book", emma)], headers: Self.french)
            let said = try await member.get(try #require(borrowed.headers[.location]), headers: Self.french)
            #expect(said.shows("Vous avez emprunté 2 livres\(Self.nbsp): «\(Self.nbsp)"), "\(said.text)")

            let librarian = Browser(api, session: api.librarianToken)
            try await librarian.get("/books/delete-all", headers: Self.french)
            let refused = try await librarian.post("/books/delete-all", [("confirm", "tout retirer")], headers: Self.french)
            #expect(refused.status == .badRequest && refused.shows("Tapez TOUT RETIRER en majuscules pour confirmer\(Self.nbsp):"))
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 2)
            let done = try await librarian.post("/books/delete-all", [("confirm", "TOUT RETIRER")], headers: Self.french)
            #expect(done.status == .seeOther && done.headers[.location] == "/books")
            let english = try await librarian.get("/books/delete-all")
            #expect(english.shows("<strong>DELETE ALL</strong>"), "English readers type the English words")
        }
    }
}
