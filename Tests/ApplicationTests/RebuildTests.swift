import Application
import Domain
import Foundation
import GRDB
import Testing

/// A rebuild reads the log back in batches, on another connection, and applies each batch in one
/// transaction: the rows it leaves must be the ones the appends wrote event by event.
@Suite("Read models rebuilt from the log")
struct RebuildTests {
    let t: TestLibrary
    init() throws { t = try TestLibrary() }

    /// Every column of every catalogue row, as text, in the order the books were added.
    func catalogueRows() throws -> [[String]] {
        let raw = try DatabaseQueue(path: t.folder.databasePath)
        defer { try? raw.close() }
        return try raw.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM catalogue_books ORDER BY seq").map { row in
                row.databaseValues.map(\.description)
            }
        }
    }

    @Test func aRebuildLeavesEveryCatalogueRowAsTheAppendsWroteIt() async throws {
        // Given three books lent and given back in turn, a member renamed while her loan of the first
        // is its last checkout, the second lent again since, and the third edited, lent and withdrawn
        let catalogue = t.library.catalogue, circulation = t.library.circulation
        var books: [BookID] = []
        for n in 1...3 {
            books.append(
                try await catalogue.addBook.execute(BookDraft(title: "Book \(n)", authors: ["Author"]), copies: 2, by: .cliOperator).id)
        }
        let ada = try await t.member("ada@example.org", "Ada")
        let bob = try await t.member("bob@example.org", "Bob")
        func lend(_ book: BookID, to reader: Principal) async throws -> LoanID {
            t.clock.advance(by: 60)
            return try #require(try await circulation.borrow.execute([book], by: reader).first).id
        }
        let first = try await lend(books[0], to: ada)
        let second = try await lend(books[1], to: bob)
        _ = try await t.library.accounts.editProfile.execute(ProfileForm(displayName: "Ada Lovelace"), by: ada)
        _ = try await circulation.giveBack.execute(second, by: bob)
        _ = try await circulation.giveBack.execute(try await lend(books[1], to: ada), by: ada)
        _ = try await lend(books[1], to: bob)
        _ = try await catalogue.editBook.execute(books[2], changes: BookChanges(title: "Book Three"), by: .cliOperator)
        _ = try await circulation.giveBack.execute(try await lend(books[2], to: bob), by: bob)
        _ = try await catalogue.withdrawBooks.execute([books[2]], by: .cliOperator)
        _ = try await circulation.giveBack.execute(first, by: ada)
        let live = try catalogueRows()
        #expect(live.count == 2)
        #expect(live.contains { $0.contains("\"Ada Lovelace\"") }, "\(live)")

        // When the read models are rebuilt from the log (one batch)
        #expect(try await t.database.rebuild { _, _ in } > 0)

        // Then the catalogue is the same, row for row
        #expect(try catalogueRows() == live)
    }
}
