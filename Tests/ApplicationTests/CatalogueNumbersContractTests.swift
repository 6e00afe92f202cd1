import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The catalogue numbers read model of this adapter.
    var catalogueNumbers: any CatalogueNumbers { sqlite?.catalogueNumbers ?? postgres!.catalogueNumbers }
}

/// The catalogue numbers' contract (`CatalogueNumbers`), on every store adapter: 1, 2, 3… in the
/// order books were added, never given twice, kept after a book leaves the catalogue, the same
/// after a rebuild.
@Suite("Catalogue numbers read model (contract)")
struct CatalogueNumbersContractTests {
    typealias C = CatalogueContractTests

    @Test("books are numbered in the order added; a withdrawn book keeps its number and no one gets it", arguments: LibraryFactory.all)
    func numbers(library: LibraryFactory) async throws {
        let lib = try await library.make()
        for n in [3, 1, 2] { try await C.add(n, "Book \(n)", by: ["A"], lib) }
        #expect(try await lib.catalogueNumbers.number(of: C.book(3)) == 1)
        #expect(try await lib.catalogueNumbers.number(of: C.book(2)) == 3)
        #expect(try await lib.catalogueNumbers.book(numbered: 2) == C.book(1))
        #expect(try await lib.catalogueNumbers.number(of: C.book(9)) == nil)
        #expect(try await lib.catalogueNumbers.book(numbered: 4) == nil)
        #expect(try await lib.catalogueNumbers.book(numbered: 0) == nil)
        try await lib.append(.book(C.book(1)), .book(.withdrawn(BookWithdrawn(book: C.book(1)))))
        try await C.add(4, "Book 4", by: ["A"], lib)
        #expect(try await lib.catalogueNumbers.number(of: C.book(1)) == 2)
        #expect(try await lib.catalogueNumbers.number(of: C.book(4)) == 4)
        #expect(try await lib.catalogueNumbers.numbered().map(\.number) == [1, 3, 4])
        #expect(try await lib.catalogueNumbers.numbered().map(\.book) == [3, 2, 4].map(C.book))
        await lib.postgres?.close()
    }

    /// A log no use case writes (a withdrawn book added again), as SQLite's AUTOINCREMENT numbers
    /// it: the book keeps its first number, and the number the second `book.added` took is spent.
    @Test("a book added again keeps its number, and the number it was refused is never given", arguments: LibraryFactory.all)
    func addedAgain(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await C.add(1, "Book 1", by: ["A"], lib)
        try await lib.append(.book(C.book(1)), .book(.withdrawn(BookWithdrawn(book: C.book(1)))))
        let again = BookAdded(book: C.book(1), details: BookDetails(title: "Book 1", authors: ["A"]), copies: 1)
        try await lib.append(.book(C.book(1)), .book(.added(again)))
        try await C.add(2, "Book 2", by: ["A"], lib)
        #expect(try await lib.catalogueNumbers.numbered().map(\.number) == [1, 3])
        try await lib.rebuild()
        #expect(try await lib.catalogueNumbers.numbered().map(\.number) == [1, 3])
        await lib.postgres?.close()
    }

    @Test("a rebuild gives every book its number again", arguments: LibraryFactory.all)
    func rebuild(library: LibraryFactory) async throws {
        let lib = try await library.make()
        for n in 1...5 { try await C.add(n, "Book \(n)", by: ["A"], lib) }
        try await lib.append(.book(C.book(2)), .book(.withdrawn(BookWithdrawn(book: C.book(2)))))
        let before = try await lib.catalogueNumbers.numbered().map { "\($0.number) \($0.book)" }
        try await lib.rebuild()
        #expect(try await lib.catalogueNumbers.numbered().map { "\($0.number) \($0.book)" } == before)
        #expect(before.count == 4)
        #expect(try await lib.catalogueNumbers.number(of: C.book(2)) == 2)
        try await C.add(6, "Book 6", by: ["A"], lib)
        #expect(try await lib.catalogueNumbers.number(of: C.book(6)) == 6)
        await lib.postgres?.close()
    }
}
