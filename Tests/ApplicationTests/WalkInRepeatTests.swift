import Application
import Domain
import Foundation
import Testing

/// `CheckoutWalkIn` with `unlessLentAlready`: a checkout repeating one that took effect (the
/// book's last checkout is still open, at the desk, under the same name) lends nothing more.
@Suite("Walk-in checkouts repeated by a retrying client")
struct WalkInRepeatTests {
    let t: DeskLibrary
    init() throws { t = try DeskLibrary(walkInLimit: 5) }

    func active() async throws -> [LoanSummary] { try await t.library.circulation.list.active(by: .cliOperator).items }

    @Test func aRepeatAnswersTheOpenLoanAndRecordsNothing() async throws {
        let book = try await t.book("Two copies", copies: 2)
        let checkout = t.library.circulation.checkout
        let first = try await checkout.execute(book, borrowerName: "Mrs Hudson", unlessLentAlready: true, by: .cliOperator)
        let head = try await t.database.headPosition()
        let again = try await checkout.execute(book, borrowerName: " mrs  HUDSON ", unlessLentAlready: true, by: .cliOperator)
        #expect(again == first)
        #expect(try await t.database.headPosition() == head, "nothing recorded")
        // Without the option, the desk refuses the name a second copy (one copy of a book at a time).
        await #expect(throws: LoanRefused.self) { try await checkout.execute(book, borrowerName: "Mrs Hudson", by: .cliOperator) }
        #expect(try await active().count == 1)
    }

    @Test func anotherNameOrAReturnedLoanIsNoRepeat() async throws {
        let book = try await t.book("Two copies", copies: 2)
        let checkout = t.library.circulation.checkout
        let holmes = try await checkout.execute(book, borrowerName: "Holmes", unlessLentAlready: true, by: .cliOperator)
        _ = try await checkout.execute(book, borrowerName: "Watson", unlessLentAlready: true, by: .cliOperator)
        #expect(try await active().count == 2)
        let (librarian, _) = try await t.signUp("lib@example.org", role: .librarian)
        _ = try await t.library.circulation.giveBack.execute(holmes.id, by: librarian)
        t.clock.advance(by: 60)
        let back = try await checkout.execute(book, borrowerName: "Holmes", unlessLentAlready: true, by: .cliOperator)
        #expect(back.id != holmes.id && back.returnedAt == nil)
        #expect(try await active().count == 2)
    }
}
