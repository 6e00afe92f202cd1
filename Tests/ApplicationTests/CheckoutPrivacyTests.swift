import Application
import Domain
import Foundation
import Testing

/// A book's last borrower is named to librarians and to that borrower only, on the real SQLite store.
@Suite("Checkout privacy")
struct CheckoutPrivacyTests {
    let t: TestLibrary
    init() throws { t = try TestLibrary() }

    /// Ada and Bob, and Dune with two copies, lent to Ada.
    func adaBorrowingDune() async throws -> (ada: Principal, bob: Principal, dune: BookID) {
        let (ada, bob) = (try await t.member("ada@example.org", "Ada"), try await t.member("bob@example.org", "Bob"))
        let dune = try await t.library.catalogue.addBook.execute(
            BookDraft(title: "Dune", authors: ["Herbert"]), copies: 2, by: .cliOperator
        ).id
        _ = try await t.library.circulation.borrow.execute([dune], by: ada)
        return (ada, bob, dune)
    }

    func shownName(_ book: BookID, to principal: Principal) async throws -> String? {
        let shown = try await t.library.catalogue.showBook.execute(book, by: principal).lastCheckout?.name
        let listed = try await t.library.catalogue.listBooks.execute(CatalogueQuery(), by: principal).items.first { $0.id == book }
        #expect(listed?.lastCheckout?.name == shown, "the list and the book's page name the same borrower")
        return shown
    }

    @Test func aMemberSeesTheirOwnNameOnlyAndNoOneElses() async throws {
        let (ada, bob, dune) = try await adaBorrowingDune()
        #expect(try await shownName(dune, to: ada) == "Ada")
        #expect(try await shownName(dune, to: bob) == nil)
        #expect(try await shownName(dune, to: .anonymous) == nil)
        #expect(try await shownName(dune, to: .cliOperator) == "Ada")
    }

    @Test func twoCheckoutsAtOneInstantNameNobodyToEitherMember() async throws {
        // Given two members borrowing copies of one book at the same instant (the clock stands still)
        let (ada, bob, dune) = try await adaBorrowingDune()
        let bobs = try #require(try await t.library.circulation.borrow.execute([dune], by: bob).first)
        // Then the librarian sees the last borrower, and neither member sees the other's name
        #expect(try await shownName(dune, to: .cliOperator) == "Bob")
        #expect(try await shownName(dune, to: ada) == nil)
        #expect(try await shownName(dune, to: bob) == nil)
        // And once the clock moves on, the next borrower is named to themselves alone again
        t.clock.advance(by: 60)
        _ = try await t.library.circulation.giveBack.execute(bobs.id, by: bob)
        let carol = try await t.member("carol@example.org", "Carol")
        _ = try await t.library.circulation.borrow.execute([dune], by: carol)
        #expect(try await shownName(dune, to: carol) == "Carol")
        #expect(try await shownName(dune, to: ada) == nil)
        #expect(try await shownName(dune, to: bob) == nil)
    }
}
