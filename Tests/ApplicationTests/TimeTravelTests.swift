import Application
import Domain
import Foundation
import Testing

@Suite("Time travel and replay")
struct TimeTravelTests {
    @Test func asOfAnswersFollowAScriptedHistory() async throws {
        let t = try TestLibrary()
        let day: TimeInterval = 24 * 3600
        let t0 = t.clock.now()
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 1, by: .cliOperator)
        t.clock.advance(by: day)  // t0 + 1d
        let form = SignupForm(email: "ada@example.org", password: "Member-Pass1", country: "FR")
        let ada = try await t.library.accounts.authenticate.execute(
            token: try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token))
        let loan = try await t.library.circulation.borrow.execute([dune.id], by: ada)[0]
        t.clock.advance(by: day)  // t0 + 2d
        _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "Emma", authors: ["J"]), copies: 1, by: .cliOperator)
        t.clock.advance(by: day)  // t0 + 3d
        _ = try await t.library.circulation.giveBack.execute(loan.id, by: ada)

        let travel = t.library.timeTravel
        #expect(try await travel.execute(at: t0 - 1, view: .books, by: .cliOperator).books.isEmpty)
        #expect(try await travel.execute(at: t0 + day / 2, view: .books, by: .cliOperator).books.map(\.details.title) == ["Dune"])
        let thenBooks = try await travel.execute(at: t0 + 2.5 * day, view: .books, by: .cliOperator).books
        #expect(thenBooks.map(\.details.title) == ["Dune", "Emma"] && thenBooks[0].onLoan == 1)
        #expect(try await travel.execute(at: t0 + 1.5 * day, view: .loans, by: .cliOperator).loans.map(\.bookTitle) == ["Dune"])
        #expect(try await travel.execute(at: t0 + 3.5 * day, view: .loans, by: .cliOperator).loans.isEmpty)
        let member = try await travel.execute(at: t0 + 3.5 * day, view: .member(email: "ada@example.org"), by: .cliOperator)
        #expect(member.account?.email.value == "ada@example.org" && member.loans.count == 1 && member.loans[0].returnedAt != nil)
        await #expect(throws: Forbidden.self) { try await travel.execute(at: t0, view: .books, by: ada) }
    }

    @Test func replayStopsAtAPositionIntoANewFile() async throws {
        let t = try TestLibrary()
        for n in 1...4 {
            _ = try await t.library.catalogue.addBook.execute(BookDraft(title: "B\(n)", authors: ["A"]), copies: 1, by: .cliOperator)
        }
        let path = t.folder.url.appendingPathComponent("replay.sqlite").path
        #expect(try await t.library.replay.execute(into: path, until: .position(2), by: .cliOperator) == 2)
        await #expect(throws: InvalidInput.self) { try await t.library.replay.execute(into: path, by: .cliOperator) }
        var configuration = ShelfmarkConfigurationForTests.make(path)
        configuration.durability = .off
        let (replayed, database) = try BootstrapForTests.open(configuration)
        defer { try? database.close() }
        #expect(try await replayed.catalogue.listBooks.execute(CatalogueQuery(sort: .oldest)).items.map(\.details.title) == ["B1", "B2"])
        #expect(try await replayed.verifyLog.execute(by: .cliOperator).allSatisfy(\.passed))
    }
}
