import Application
import Domain
import Foundation
import Testing

/// Renewals and notices as a new member meets them (issue 15): a renewal counts from the due
/// date, re-arms the due-soon notice, and a scan at another moment only rehearses.
@Suite("Renewals and notices on the real SQLite store")
struct RenewalTests {
    let t: TestLibrary
    var circulation: CirculationUseCases { t.library.circulation }
    init() throws { t = try TestLibrary() }
    let day: TimeInterval = 24 * 3600

    func member(_ email: String) async throws -> Principal {
        let form = SignupForm(email: email, password: "Member-Pass1", displayName: String(email.prefix { $0 != "@" }), country: "FR")
        let token = try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    func borrowDune(by member: Principal) async throws -> LoanSummary {
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["A"]), copies: 1, by: .cliOperator).id
        return try await circulation.borrow.execute([dune], by: member)[0]
    }

    @Test func renewingTwiceRightAfterBorrowingAddsTwoLoanPeriods() async throws {
        let ada = try await member("ada@example.org")
        let loan = try await borrowDune(by: ada)
        t.clock.advance(by: 7)
        #expect(try await circulation.renew.execute(loan.id, by: ada).dueAt == loan.dueAt.addingTimeInterval(14 * day))
        t.clock.advance(by: 7)
        let twice = try await circulation.renew.execute(loan.id, by: ada)
        #expect(twice.dueAt == loan.dueAt.addingTimeInterval(28 * day) && twice.renewals == 2)
    }

    @Test func aRenewalReArmsTheDueSoonNoticeForTheNewDueDate() async throws {
        let ada = try await member("ada@example.org")
        let loan = try await borrowDune(by: ada)
        t.clock.advance(by: 13 * day)
        #expect(try await circulation.scan.execute(by: .system) == 1)
        let renewed = try await circulation.renew.execute(loan.id, by: ada)
        #expect(try await circulation.scan.execute(by: .system) == 0)  // the new date is two weeks away
        t.clock.advance(by: 13 * day)
        #expect(try await circulation.scan.execute(by: .system) == 1)
        #expect(try await circulation.scan.execute(by: .system) == 0)
        let notices = try await circulation.notices.list(by: ada)
        #expect(notices.items.map(\.kind) == [.dueSoon, .dueSoon])
        #expect(Set(notices.items.map(\.dueAt)) == [loan.dueAt, renewed.dueAt])
        #expect(Set(notices.items.map(\.id)).count == 2 && notices.unread == 2)
        try await circulation.notices.markRead(notices.items[0].id, by: ada)
        #expect(try await circulation.notices.list(by: ada).unread == 1)
    }

    @Test func aScanInTheFutureIsARehearsalThatIssuesNothing() async throws {
        let ada = try await member("ada@example.org")
        let loan = try await borrowDune(by: ada)
        let rehearsed = try await circulation.scan.rehearse(asOf: t.clock.now().addingTimeInterval(15 * day), by: .cliOperator)
        #expect(rehearsed.map(\.kind) == [.overdue] && rehearsed.first?.loan == loan.id)
        #expect(try await circulation.notices.list(by: ada).items.isEmpty)
        #expect(
            try await circulation.scan.rehearse(asOf: t.clock.now().addingTimeInterval(13 * day), by: .cliOperator).map(\.kind) == [
                .dueSoon
            ])
        // Only the clock decides: when the loan really is overdue, the real scan issues it, dated now.
        t.clock.advance(by: 15 * day)
        #expect(try await circulation.scan.execute(by: .system) == 1)
        let notices = try await circulation.notices.list(by: ada).items
        #expect(notices.map(\.kind) == [.overdue] && notices.first?.issuedAt == t.clock.now())
        #expect(try await circulation.scan.rehearse(asOf: t.clock.now(), by: .cliOperator).isEmpty)
    }

    @Test func rehearsingIsForThoseWhoMayScan() async throws {
        let ada = try await member("ada@example.org")
        await #expect(throws: Forbidden.self) { try await circulation.scan.rehearse(asOf: t.clock.now(), by: ada) }
    }
}
