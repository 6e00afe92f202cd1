import Application
import Domain
import Foundation
import Testing

/// What BitBooks says is on the shelf matches what the library would lend (found by an outside
/// walk: an older record of a duplicate ISBN hid the newer one's copies, and a copy kept for a
/// member who waited was offered as free, then refused).
@Suite("BitBooks: what is on the shelf")
struct BitBooksShelfTests {
    @Test func aDuplicateISBNLendsFromTheRecordWithACopyOnTheShelf() async throws {
        try await withBitBooks { bitbooks in
            try await bitbooks.book("Solaris", isbn: "9780156027601", copies: 1)
            for name in ["ada", "cat"] { try await bitbooks.member(name) }
            let ada = try await bitbooks.loggedIn("ada")
            #expect(try await ada.ask("LOAN ada 9780156027601") == "Loan confirmed")
            let paperback = BookDraft(title: "Solaris (paperback)", authors: ["Stanislaw Lem"], isbn: "0-15-602760-7")
            _ = try await bitbooks.library.catalogue.addBook.execute(paperback, copies: 2, allowDuplicate: true, by: .cliOperator)
            let cat = try await bitbooks.loggedIn("cat")
            let shown = try object(try await cat.ask("GET_BOOK 9780156027601"))
            #expect(shown["title"] as? String == "Solaris (paperback)" && shown["given_copies"] as? Int == 0, "\(shown)")
            #expect(try await cat.ask("LOAN cat 9780156027601") == "Loan confirmed")
        }
    }

    /// Found by an outside walk: bob's `LOAN` took the other record's free copy and left his kept
    /// one aside, so the next member was refused and bob could take both.
    @Test func aMemberTakesTheCopyKeptForThemWhicheverRecordHoldsIt() async throws {
        try await withBitBooks { bitbooks in
            let first = try await bitbooks.book("Dune A", isbn: "9780441172719", copies: 1)
            let draft = BookDraft(title: "Dune B", authors: ["F"], isbn: "9780441172719")
            let second = try await bitbooks.library.catalogue.addBook.execute(draft, copies: 1, allowDuplicate: true, by: .cliOperator)
            let checkout = bitbooks.library.circulation.checkout
            let lentA = try await checkout.execute(first.id, borrowerName: "Walker One", by: .cliOperator)
            let lentB = try await checkout.execute(second.id, borrowerName: "Walker Two", by: .cliOperator)
            let bob = Principal.user(try await bitbooks.member("bob"), .member, SessionID(UUID()))
            try await bitbooks.member("cat")
            _ = try await bitbooks.library.circulation.holds.place.execute(first.id, by: bob)
            for loan in [lentA, lentB] { _ = try await bitbooks.library.circulation.giveBack.execute(loan.id, by: .cliOperator) }
            let bobs = try await bitbooks.loggedIn("bob")
            #expect(try await bobs.ask("LOAN bob 9780441172719") == "Loan confirmed")
            let mine = try await bitbooks.library.circulation.list.mine(by: bob).items
            #expect(mine.map(\.book) == [first.id], "bob took his kept copy")
            let cat = try await bitbooks.loggedIn("cat")
            #expect(try await cat.ask("LOAN cat 9780441172719") == "Loan confirmed")
        }
    }

    @Test func aCopyKeptForAMemberWhoWaitedIsNotOnTheShelf() async throws {
        try await withBitBooks { bitbooks in
            let book = try await bitbooks.book("Dune", isbn: "9780441172719", copies: 1)
            let ada = Principal.user(try await bitbooks.member("ada"), .member, SessionID(UUID()))
            let dan = Principal.user(try await bitbooks.member("dan"), .member, SessionID(UUID()))
            try await bitbooks.member("eve")
            let loan = try await bitbooks.library.circulation.borrow.execute([book.id], by: ada)[0]
            _ = try await bitbooks.library.circulation.holds.place.execute(book.id, by: dan)
            _ = try await bitbooks.library.circulation.giveBack.execute(loan.id, by: ada)
            let eve = try await bitbooks.loggedIn("eve")
            let shown = try object(try await eve.ask("GET_BOOK 9780441172719"))
            #expect(shown["copies"] as? Int == 1 && shown["given_copies"] as? Int == 1, "kept for dan: \(shown)")
            let listed = try objects(try await eve.ask("GET_BOOKS")).first { $0["ISBN"] as? String == "9780441172719" }
            #expect(listed?["given_copies"] as? Int == 1)
            #expect(try await eve.ask("LOAN eve 9780441172719") == "No more copies available for the book: Dune")
        }
    }
}
