import Composition
import Domain
import Foundation
import InMemory
import SQLiteStore
import Testing

@testable import Application

/// Borrowing and returning anticipate, through the real use cases and the real SQLite store: a
/// member borrowing a book whose last copy movement is still in flight decides on it, and the
/// store writes that loan right after it.
@Suite("Anticipating circulation on SQLite", .timeLimit(.minutes(5)))
struct AnticipatingCirculationTests {
    let t: TestLibrary
    let held: AnticipationTests.HeldStore
    let circulation: CirculationUseCases

    init() throws {
        t = try TestLibrary()
        held = AnticipationTests.HeldStore(t.database.eventStore)
        let runner = CommandRunner(store: held, clock: t.clock, ids: RandomIDs(), random: FixedRandom(0))
        circulation = CirculationUseCases(
            CirculationDependencies(
                runner: runner, loans: t.database.loans, notices: t.database.loans, holds: t.database.holds, accounts: t.database.accounts,
                policy: LoanPolicy()))
    }

    func member(_ email: String) async throws -> Principal {
        let form = SignupForm(email: email, password: "Member-Pass1", country: "FR")
        let token = try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    /// `body`'s answer, every append held meanwhile written in turn (a retry's too).
    func writingAll<T>(_ body: () async throws -> T) async throws -> T {
        let done = AnticipationTests.Answers()
        let writer = Task { [held] in await held.writeAll { !done.lent.isEmpty } }
        let answer: Result<T, any Error>
        do { answer = .success(try await body()) } catch { answer = .failure(error) }
        done.tell(0, lent: true)
        await writer.value  // stopped before the next step holds appends of its own
        return try answer.get()
    }

    @Test func borrowsAndReturnsOfOneBookFollowEachOtherInFlight() async throws {
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 2, by: .cliOperator).id
        let (ada, bob) = (try await member("ada@example.org"), try await member("bob@example.org"))
        let first = Task { try await circulation.borrow.execute([dune], by: ada) }
        await held.holding(1)
        let second = Task { try await circulation.borrow.execute([dune], by: bob) }
        await held.holding(2)
        let book = StreamName.book(dune)
        let lent = try #require(held.waiting[0].first { $0.stream == book }?.events.last).metadata.eventID
        #expect(held.waiting[1].first { $0.stream == book }?.expected == .endingWith(lent, version: 2))
        let loans = try await writingAll { try await (first.value[0], second.value[0]) }
        #expect(try await t.library.catalogue.showBook.execute(dune).available == 0)
        // The two returns, the second decided on the first in flight.
        let back = Task { try await circulation.giveBack.execute(loans.0.id, by: ada) }
        await held.holding(1)
        let again = Task { try await circulation.giveBack.execute(loans.1.id, by: bob) }
        await held.holding(2)
        let returned = try #require(held.waiting[0].first { $0.stream == book }?.events.last).metadata.eventID
        #expect(held.waiting[1].first { $0.stream == book }?.expected == .endingWith(returned, version: 4))
        _ = try await writingAll { try await (back.value, again.value) }
        #expect(try await t.library.catalogue.showBook.execute(dune).available == 2)
    }
}
