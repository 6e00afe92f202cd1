import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

/// `Golden/log-v4.jsonl` holds the account lifecycle's stored types (issue 16): exported with
/// `shelfmark audit export --include-secrets` from a fresh library driven through the CLI (a
/// librarian added; ann signed up, edited her name and country, changed her email and password;
/// bob signed up, was given a reset code by the librarian, reset his password with it and closed
/// his account; a walk-in borrower lent Dune by name and returned it). Never edit it; it must
/// replay forever. Its personal fields are sealed and their keys are not exported, so a replay
/// shows the accounts as erased.
@Suite("Golden log: accounts")
struct GoldenAccountsLogTests {
    @Test func itReplaysIntoTheAccountsAndWalkInLoanItRecorded() async throws {
        let folder = TemporaryFolder()
        let database = try await GoldenLogTests.replay(GoldenLogTests.lines(of: "log-v4.jsonl"), into: folder)
        defer { try? database.close() }
        // The personal data is sealed with keys the export leaves behind: replayed elsewhere, every
        // account (bob's closed one and ann's edited one alike) reads as erased, so none is listed.
        #expect(try await database.accounts.list(.first).items.isEmpty)
        let walkIns = try await database.loans.loans(LoanFilter(walkIn: "Walter Walkin", includeReturned: true))
        #expect(walkIns.map(\.bookTitle) == ["Dune"] && walkIns.allSatisfy { $0.returnedAt != nil })
        let books = try await database.catalogue.page(CatalogueQuery(), .first).items
        #expect(books.map(\.onLoan) == [0])
    }
}
