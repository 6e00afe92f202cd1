import Domain
import Foundation
import Testing
import Wording

@testable import Application

/// What history says each event changed (`PayloadFold`): an edit against what came before about the
/// same thing, anything else as it states it.
@Suite("History's changes")
struct HistoryChangesTests {
    let t: TestLibrary
    init() throws { t = try TestLibrary() }

    func ada() async throws -> Principal {
        let session = try #require(
            try await t.library.accounts.signUp.execute(
                SignupForm(email: "ada@example.org", password: "Analytical-1", displayName: "Ada Lovelace", country: "GB"),
                by: .anonymous
            ).session)
        return try await t.library.accounts.authenticate.execute(token: session.token)
    }

    func changes(_ subject: AggregateHistory.Subject, _ type: String) async throws -> [[String]] {
        try await t.library.history.execute(subject, by: .cliOperator).items.filter { $0.type == type }
            .map { $0.changes.map { Wording.english.text(.fieldChange($0)) } }
    }

    @Test func anEditShowsTheFieldItChanged() async throws {
        // Given a book added with a publisher
        let book = try await t.library.catalogue.addBook.execute(
            BookDraft(title: "Dune", authors: ["Frank Herbert"], publisher: "Chilton"), copies: 1, by: .cliOperator)
        // When its publisher is edited
        _ = try await t.library.catalogue.editBook.execute(book.id, changes: BookChanges(publisher: "Harper"), by: .cliOperator)
        // Then the edit reads as that change only
        #expect(try await changes(.book(book.id.description), "book.edited.v1") == [["publisher: Chilton → Harper"]])
    }

    @Test func twoSessionsAreNotOneChangedIntoTheOther() async throws {
        // Given a member with a session, and a reset code issued for her
        _ = try await ada()
        _ = try await t.library.accounts.passwords.issueResetCode.execute("ada@example.org", by: .cliOperator)
        // When she logs in again later
        t.clock.advance(by: 3_600)
        _ = try await t.library.accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1")
        // Then each session and the code list their own fields, none compared with another's
        let sessions = try await changes(.member(email: "ada@example.org"), "user.session-opened.v1")
        #expect(sessions.count == 2)
        for opened in sessions {
            #expect(opened.contains { $0.hasPrefix("expiresAt: ") && !$0.contains("→") }, "\(opened)")
            #expect(opened.contains { $0.hasPrefix("session: ") } && !opened.joined().contains("→"), "\(opened)")
        }
        let code = try await changes(.member(email: "ada@example.org"), "user.reset-code-issued.v1")
        #expect(code.count == 1 && code[0].contains { $0.hasPrefix("expiresAt: ") } && !code[0].joined().contains("→"), "\(code)")
    }

    @Test func twoLoansDueTheSameDayBothShowTheirDueDate() async throws {
        // Given a member and two books
        let member = try await ada()
        guard case .user(let id, _, _) = member else { throw Unauthenticated() }
        let dune = try await t.library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 1, by: .cliOperator)
        let emma = try await t.library.catalogue.addBook.execute(BookDraft(title: "Emma", authors: ["J"]), copies: 1, by: .cliOperator)
        // When she borrows both at once, and renews one
        let loans = try await t.library.circulation.borrow.execute([dune.id, emma.id], by: member)
        t.clock.advance(by: 86_400)
        _ = try await t.library.circulation.renew.execute(loans[0].id, by: member)
        // Then both loans state the same due date, and the renewal changes only its own loan's
        let started = try await changes(.stream("patron-\(id)"), "patron.loan-started.v1")
        let due = started.map { $0.filter { $0.hasPrefix("dueAt: ") } }
        #expect(due.count == 2 && due[0].count == 1 && due[0] == due[1], "\(started)")
        let renewed = try await changes(.stream("patron-\(id)"), "patron.loan-renewed.v1")
        #expect(renewed.count == 1 && renewed[0].count == 1, "\(renewed)")
        #expect(renewed.first?.first?.hasPrefix(due[0][0] + " → ") == true, "\(renewed) after \(due)")
    }
}
