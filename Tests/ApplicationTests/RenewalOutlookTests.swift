import Application
import Domain
import Foundation
import Testing

/// A loan's renewal outlook says what `RenewLoan` would decide now, and records nothing.
@Suite("Renewal outlook")
struct RenewalOutlookTests {
    let t: TestLibrary
    var circulation: CirculationUseCases { t.library.circulation }
    init() throws { t = try TestLibrary() }

    func member(_ email: String, role: Role = .member) async throws -> Principal {
        let form = SignupForm(email: email, password: "Member-Pass1", displayName: String(email.prefix { $0 != "@" }), country: "FR")
        let signedUp = try await t.library.accounts.signUp.execute(form, role: role, by: role == .member ? .anonymous : .cliOperator)
        let token = try #require(signedUp.session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    @Test func theOutlookCountsRenewalsLeftAndSaysWhyNotAsRenewingWould() async throws {
        let ada = try await member("ada@example.org")
        let bob = try await member("bob@example.org")
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["A"]), copies: 1, by: .cliOperator).id
        let loan = try await circulation.borrow.execute([dune], by: ada)[0]
        let fresh = try await circulation.list.renewalOutlook(loan.id, by: ada)
        #expect(fresh.renewalsLeft == 2 && fresh.refusal == nil)
        #expect(try await circulation.list.renewalOutlook(loan.id, by: ada) == fresh, "asking records nothing")
        #expect(try await circulation.list.mine(by: ada).items.first?.renewals == 0)
        _ = try await circulation.renew.execute(loan.id, by: ada)
        #expect(try await circulation.list.renewalOutlook(loan.id, by: ada).renewalsLeft == 1)

        _ = try await circulation.holds.place.execute(dune, by: bob)
        let waiting = try await circulation.list.renewalOutlook(loan.id, by: ada)
        #expect(waiting.refusal?.rejection == .loan(.othersWaiting(count: 1)) && waiting.refusal?.loanTitle == "Dune")
        await #expect(throws: LoanRefused.self) { try await circulation.renew.execute(loan.id, by: ada) }
        await #expect(throws: NotFound.self) { try await circulation.list.renewalOutlook(loan.id, by: bob) }
        #expect(
            try await circulation.list.renewalOutlook(loan.id, by: try await member("lib@example.org", role: .librarian)).refusal != nil,
            "librarians see any loan's")
    }

    @Test func theLastRenewalAndAnOverdueLoanAreRefusedAhead() async throws {
        let ada = try await member("ada@example.org")
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["A"]), copies: 1, by: .cliOperator).id
        let loan = try await circulation.borrow.execute([dune], by: ada)[0]
        _ = try await circulation.renew.execute(loan.id, by: ada)
        _ = try await circulation.renew.execute(loan.id, by: ada)
        let spent = try await circulation.list.renewalOutlook(loan.id, by: ada)
        #expect(spent.renewalsLeft == 0 && spent.refusal?.rejection == .loan(.renewalLimitReached(max: 2)))
        t.clock.advance(by: 60 * 24 * 3600)
        #expect(try await circulation.list.renewalOutlook(loan.id, by: ada).refusal?.rejection == .loan(.overdueCannotBeRenewed))
    }
}
