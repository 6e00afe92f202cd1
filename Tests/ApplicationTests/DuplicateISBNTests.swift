import Application
import Domain
import Foundation
import Testing

/// One record per ISBN unless a second is asked for, on a real SQLite library.
@Suite("Duplicate ISBNs")
struct DuplicateISBNTests {
    let t: TestLibrary
    var catalogue: CatalogueUseCases { t.library.catalogue }
    let dune = try! ISBN(parsing: "9780441172719")

    init() throws { t = try TestLibrary() }

    func add(_ title: String, isbn: String?, allowDuplicate: Bool = false) async throws -> CatalogueEntry {
        try await catalogue.addBook.execute(
            BookDraft(title: title, authors: ["Frank Herbert"], isbn: isbn), copies: 1, allowDuplicate: allowDuplicate, by: .cliOperator)
    }

    func refusal(_ body: () async throws -> CatalogueEntry) async -> BookRejection? {
        do {
            _ = try await body()
            return nil
        } catch let refused as BookRefused {
            return refused.rejection
        } catch {
            return nil
        }
    }

    @Test func anISBNInTheCatalogueIsRefusedNamingItsBook() async throws {
        let first = try await add("Dune", isbn: "0-441-17271-7")
        let rejection = await refusal { try await add("Dune (again)", isbn: "978-0-441-17271-9") }
        #expect(rejection == .duplicateISBN(dune, existing: first.id, title: "Dune"))
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 1)
    }

    @Test func aSecondRecordIsMadeWhenAskedFor() async throws {
        let first = try await add("Dune", isbn: "0441172717")
        let second = try await add("Dune, book club edition", isbn: "0441172717", allowDuplicate: true)
        #expect(first.id != second.id && second.details.isbn == dune)
        // The oldest record is the one named while both stand.
        #expect(await refusal { try await add("Dune 3", isbn: "0441172717") } == .duplicateISBN(dune, existing: first.id, title: "Dune"))
    }

    @Test func booksWithoutAnISBNAreNeverDuplicates() async throws {
        _ = try await add("Notes", isbn: nil)
        _ = try await add("Notes", isbn: nil)
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 2)
    }

    @Test func aWithdrawnBookReleasesItsISBN() async throws {
        let first = try await add("Dune", isbn: "0441172717")
        try await catalogue.withdrawBooks.execute([first.id], by: .cliOperator)
        let again = try await add("Dune", isbn: "0441172717")
        _ = try await catalogue.clearCatalogue.execute(by: .cliOperator)
        #expect(try await add("Dune", isbn: "0441172717").id != again.id)
    }

    @Test func anEditToAnISBNInUseIsRefusedTheSameWay() async throws {
        let dune = try await add("Dune", isbn: "0441172717")
        let other = try await add("Children of Dune", isbn: nil)
        let rejection = await refusal {
            try await catalogue.editBook.execute(other.id, changes: BookChanges(isbn: "0441172717"), by: .cliOperator)
        }
        #expect(rejection == .duplicateISBN(self.dune, existing: dune.id, title: "Dune"))
        #expect(try await catalogue.showBook.execute(other.id).details.isbn == nil)
        let edited = try await catalogue.editBook.execute(
            other.id, changes: BookChanges(isbn: "0441172717"), allowDuplicate: true, by: .cliOperator)
        #expect(edited.details.isbn == self.dune)
    }

    @Test func anEditedISBNFreesTheOldOne() async throws {
        let book = try await add("Dune", isbn: "0441172717")
        _ = try await catalogue.editBook.execute(book.id, changes: BookChanges(isbn: "0-441-47812-3"), by: .cliOperator)
        _ = try await add("Dune", isbn: "0441172717")
        #expect(await refusal { try await add("Left Hand", isbn: "0441478123") } != nil)
        // Editing other fields keeps the claim as it is.
        _ = try await catalogue.editBook.execute(book.id, changes: BookChanges(title: "The Left Hand of Darkness"), by: .cliOperator)
        #expect(await refusal { try await add("Left Hand", isbn: "0441478123") } != nil)
    }

    @Test func concurrentAddsOfOneISBNMakeOneRecord() async throws {
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 1...12 {
                group.addTask {
                    do {
                        _ = try await add("Dune \(n)", isbn: "0441172717")
                        return true
                    } catch let refused as BookRefused {
                        guard case .duplicateISBN = refused.rejection else { throw refused }
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 1)
    }

    @Test func booksCataloguedBeforeClaimsAreFound() async throws {
        // A book added as an older version did: its event alone, with no claim of its ISBN.
        let old = BookID(UUID())
        let details = BookDetails(title: "Dune", authors: ["Frank Herbert"], isbn: dune)
        try await t.database.eventStore.append([
            StreamAppend(
                .book(old), expected: .noStream,
                events: [PendingEvent(.book(.added(BookAdded(book: old, details: details, copies: 1))), metadata())])
        ])
        #expect(await refusal { try await add("Dune", isbn: "0441172717") } == .duplicateISBN(dune, existing: old, title: "Dune"))
        let second = try await add("Dune", isbn: "0441172717", allowDuplicate: true)
        let claims = try await t.database.eventStore.read(.isbn(dune)).map(\.event)
        #expect(
            claims == [
                .isbnClaim(.claimed(ISBNHolder(isbn: dune, book: old))), .isbnClaim(.claimed(ISBNHolder(isbn: dune, book: second.id))),
            ])
        try await catalogue.withdrawBooks.execute([old, second.id], by: .cliOperator)
        _ = try await add("Dune", isbn: "0441172717")
    }
}

/// Open Library down: an import of an ISBN the catalogue has is still the 409 naming the book.
private struct UnreachableLookup: BookLookup {
    func book(isbn: ISBN) async throws -> BookRecordFound? { throw SearchUnavailable(.unreachable) }
    func book(workKey: String) async throws -> BookRecordFound? { throw SearchUnavailable(.unreachable) }
}

extension DuplicateISBNTests {
    @Test func anImportOfACataloguedISBNIsRefusedWithoutAskingOpenLibrary() async throws {
        let first = try await add("Dune", isbn: "0441172717")
        let importBook = ImportBook(lookup: UnreachableLookup(), addBook: catalogue.addBook)
        let rejection = await refusal { try await importBook.execute(isbn: "978-0-441-17271-9", by: .cliOperator) }
        #expect(rejection == .duplicateISBN(dune, existing: first.id, title: "Dune"))
        await #expect(throws: SearchUnavailable.self) {
            try await importBook.execute(isbn: "978-0-441-17271-9", allowDuplicate: true, by: .cliOperator)
        }
    }
}
