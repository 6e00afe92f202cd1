import Application
import Composition
import Domain
import Foundation
import InMemory
import SQLiteStore
import Security
import Testing

@Suite("App keys and catalogue numbers on the real SQLite store")
struct AppKeyUseCaseTests {
    let t: DeskLibrary
    init() throws { t = try DeskLibrary() }

    var keys: AppKeyUseCases { t.library.appKeys }

    @Test func aLibrariansKeyActsAsThatLibrarianAndOnlyItsDigestIsKept() async throws {
        let (_, ada) = try await t.signUp("ada@example.org", role: .librarian)
        #expect(try await !keys.inUse.execute())
        let issued = try await keys.issue.execute(forEmail: "ADA@example.org", by: .cliOperator)
        #expect(AppKeyText.isKeyShaped(issued.key))
        #expect(try await keys.inUse.execute())
        let principal = try await keys.authenticate.execute(key: issued.key)
        #expect(principal.actor == "user:\(ada.id)")
        guard case .user(let id, .librarian, _) = principal else { Issue.record("not a librarian: \(principal)"); return }
        #expect(id == ada.id)
        let record = try await t.database.appKeys.appKey(digest: RandomSessionTokens().digest(issued.key))
        #expect(record == AppKeyRecord(key: issued.id, user: ada.id, app: AppKeyIssued.prolific, revoked: false))
    }

    @Test func aMembersAccountGetsNoKeyAndAMemberCannotMakeOne() async throws {
        let (member, _) = try await t.signUp("bob@example.org")
        await #expect(throws: AppKeyRefused(.notALibrarian(email: "bob@example.org"))) {
            try await keys.issue.execute(forEmail: "bob@example.org", by: .cliOperator)
        }
        await #expect(throws: Forbidden(.librarianOnly)) { try await keys.issue.execute(forEmail: "bob@example.org", by: member) }
        await #expect(throws: NotFound(.user, "nobody@example.org")) {
            try await keys.issue.execute(forEmail: "nobody@example.org", by: .cliOperator)
        }
        #expect(try await !keys.inUse.execute())
    }

    @Test func aRevokedKeyOrOneOfADemotedLibrarianIsUnknown() async throws {
        _ = try await t.signUp("ada@example.org", role: .librarian)
        let (_, grace) = try await t.signUp("grace@example.org", role: .librarian)
        let adas = try await keys.issue.execute(forEmail: "ada@example.org", by: .cliOperator)
        let graces = try await keys.issue.execute(forEmail: "grace@example.org", by: .cliOperator)
        try await keys.revoke.execute(key: adas.key, by: .cliOperator)
        try await keys.revoke.execute(key: adas.key, by: .cliOperator)  // revoked already: nothing more
        await #expect(throws: AppKeyRefused(.unknownKey)) { try await keys.authenticate.execute(key: adas.key) }
        _ = try await keys.authenticate.execute(key: graces.key)
        _ = try await t.library.accounts.changeRole.execute(grace.id, to: .member, by: .cliOperator)
        await #expect(throws: AppKeyRefused(.unknownKey)) { try await keys.authenticate.execute(key: graces.key) }
        #expect(try await !keys.inUse.execute(), "no key works any more")
        _ = try await t.library.accounts.changeRole.execute(grace.id, to: .librarian, by: .cliOperator)
        _ = try await keys.authenticate.execute(key: graces.key)
        try await t.library.accounts.closeAccount.member(grace.id, by: .cliOperator)
        await #expect(throws: AppKeyRefused(.unknownKey)) { try await keys.authenticate.execute(key: graces.key) }
        #expect(try await !keys.inUse.execute(), "a closed account's key works no more")
    }

    @Test func keysOfTheWrongShapeOrNeverIssuedAreUnknown() async throws {
        for key in ["", "0123456789abcdef0123456", "0123456789ABCDEF01234567", "0123456789abcdef01234567", "zz23456789abcdef01234567"] {
            await #expect(throws: AppKeyRefused(.unknownKey)) { try await keys.authenticate.execute(key: key) }
            await #expect(throws: AppKeyRefused(.unknownKey)) { try await keys.revoke.execute(key: key, by: .cliOperator) }
        }
    }

    @Test func booksAreNumberedInTheOrderAddedNeverReusedAndRebuiltAlike() async throws {
        let first = try await t.book("One")
        let second = try await t.book("Two")
        let third = try await t.book("Three")
        try await t.library.catalogue.withdrawBooks.execute([second], by: .cliOperator)
        let fourth = try await t.book("Four")
        let before = try await t.library.numbers.numbered()
        #expect(before.map(\.number) == [1, 3, 4])
        #expect(before.map(\.book) == [first, third, fourth])
        #expect(try await t.library.numbers.number(of: second) == 2, "a withdrawn book keeps its number")
        _ = try await t.library.readModels.rebuild { _, _ in }
        let after = try await t.library.numbers.numbered()
        #expect(after.map(\.number) == before.map(\.number) && after.map(\.book) == before.map(\.book))
        let fifth = try await t.book("Five")
        #expect(try await t.library.numbers.number(of: fifth) == 5)
        await #expect(throws: NotFound(.book, "99")) { _ = try await t.library.numbers.book(numbered: 99) }
        #expect(try await t.library.numbers.book(numbered: 2) == second)
    }
}
