import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The catalogue read model of this adapter.
    var catalogue: any Catalogue { sqlite?.catalogue ?? postgres!.catalogue }
}

/// The catalogue read model's contract (`Catalogue`), on every store adapter: books filed and
/// listed in one order, paged and counted the same way, found by the same searches (word
/// prefixes, phrases, fields, ISBNs in either form, accents and case aside), changed by edits,
/// copies, loans, holds and withdrawals, and the same after a rebuild.
@Suite("Catalogue read model (contract)")
struct CatalogueContractTests {
    typealias L = LoanRegisterContractTests
    static func book(_ n: Int) -> BookID { BookID(L.uuid(0xb00 + n)) }

    /// Adds book `n` in a stream of its own.
    static func add(
        _ n: Int, _ title: String, by authors: [String], isbn: String? = nil, publisher: String? = nil, categories: [String] = [],
        copies: Int = 1, _ lib: LibraryUnderTest
    ) async throws {
        let details = BookDetails(
            title: title, authors: authors, isbn: try isbn.map { try ISBN(parsing: $0) }, publisher: publisher, categories: categories)
        try await lib.append(.book(book(n)), .book(.added(BookAdded(book: book(n), details: details, copies: copies))))
    }

    /// The titles a query lists, on one page as large as it may be.
    static func titles(_ query: CatalogueQuery, _ lib: LibraryUnderTest) async throws -> [String] {
        try await lib.catalogue.page(query, PageRequest(limit: PageRequest.maxLimit)).items.map(\.details.title)
    }

    /// Seven books filed as a librarian expects (SQLite's `CatalogueFilingTests`).
    static func shelf(_ lib: LibraryUnderTest) async throws {
        try await add(1, "White Teeth", by: ["Zadie Smith"], lib)
        try await add(2, "The Hobbit", by: ["J. R. R. Tolkien"], lib)
        try await add(3, "Zero", by: ["Aaron Zimmer"], lib)
        try await add(4, "A Wizard of Earthsea", by: ["Ursula K. Le Guin"], lib)
        try await add(5, "Germinal", by: ["Émile Zola"], lib)
        try await add(6, "Nana", by: ["Emile Zola"], lib)
        try await add(7, "Hobbit Wars", by: ["Ludwig van Beethoven"], lib)
    }

    @Test("books are filed by title without its article and by author's surname, accents aside", arguments: LibraryFactory.all)
    func filing(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.shelf(lib)
        #expect(
            try await Self.titles(CatalogueQuery(sort: .author), lib)
                == ["Hobbit Wars", "A Wizard of Earthsea", "White Teeth", "The Hobbit", "Zero", "Germinal", "Nana"])
        #expect(
            try await Self.titles(CatalogueQuery(sort: .title), lib)
                == ["Germinal", "The Hobbit", "Hobbit Wars", "Nana", "White Teeth", "A Wizard of Earthsea", "Zero"])
        #expect(try await Self.titles(CatalogueQuery(sort: .newest), lib).first == "Hobbit Wars")
        #expect(try await Self.titles(CatalogueQuery(sort: .oldest), lib).first == "White Teeth")
        for (n, title) in ["Les Misérables", "L’Étranger", "Le Petit Prince", "Lesbos", "Une saison en enfer"].enumerated() {
            try await Self.add(10 + n, title, by: ["Anonyme"], lib)
        }
        #expect(
            try await Self.titles(CatalogueQuery(sort: .title, text: "author:anonyme"), lib)
                == ["L’Étranger", "Lesbos", "Les Misérables", "Le Petit Prince", "Une saison en enfer"])
        await lib.postgres?.close()
    }

    @Test(
        "equal keys keep the order books were added, pages walk the whole list, a page past the end is empty with the total",
        arguments: LibraryFactory.all)
    func paging(library: LibraryFactory) async throws {
        let lib = try await library.make()
        for n in 1...7 { try await Self.add(n, n % 2 == 0 ? "Same" : "same", by: ["Author \(n % 3)"], lib) }
        for sort in CatalogueSort.allCases {
            let whole = try await lib.catalogue.page(CatalogueQuery(sort: sort), PageRequest(limit: 100))
            #expect(whole.total == 7)
            let walked = try await walkPages(limit: 3) { try await lib.catalogue.page(CatalogueQuery(sort: sort), $0) }
            #expect(walked.items.map(\.id) == whole.items.map(\.id))
        }
        let added = (1...7).map(Self.book)
        #expect(try await lib.catalogue.page(CatalogueQuery(sort: .title), .first).items.map(\.id) == added)
        #expect(try await lib.catalogue.page(CatalogueQuery(sort: .newest), .first).items.map(\.id) == added.reversed())
        #expect(
            try await lib.catalogue.page(CatalogueQuery(sort: .author), .first).items.map(\.id)
                == [3, 6, 1, 4, 7, 2, 5].map(Self.book))
        let past = try await lib.catalogue.page(CatalogueQuery(), try PageRequest(limit: 5, offset: 7))
        #expect(past.items.isEmpty && past.total == 7 && past.nextOffset == nil)
        let searched = try await lib.catalogue.page(CatalogueQuery(text: "same author:author"), try PageRequest(limit: 2, offset: 6))
        #expect(searched.items.map(\.id) == [Self.book(1)] && searched.total == 7)
        #expect(try await lib.catalogue.allIDs() == added)
        #expect(try await lib.catalogue.all().map(\.id) == added)
        await lib.postgres?.close()
    }

    @Test("an entry reads back every detail it was added with", arguments: LibraryFactory.all)
    func entry(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let details = BookDetails(
            title: "Dune", authors: ["Frank Herbert", "Brian Herbert"], isbn: try ISBN(parsing: "0-441-17271-7"), publisher: "Chilton",
            categories: ["sf", "classics"], coverURL: "https://covers.example/dune.jpg", description: "Spice.\nSand.")
        try await lib.append(.book(Self.book(1)), .book(.added(BookAdded(book: Self.book(1), details: details, copies: 3))))
        try await Self.add(2, "Emma", by: [], lib)
        let at = try Timestamp.parse(Timestamp.format(metadata().recordedAt))
        let dune = CatalogueEntry(id: Self.book(1), details: details, copies: 3, onLoan: 0, addedAt: at, updatedAt: at)
        #expect(try await lib.catalogue.entry(Self.book(1)) == dune)
        #expect(try await lib.catalogue.entry(Self.book(2))?.details == BookDetails(title: "Emma", authors: []))
        #expect(try await lib.catalogue.entry(Self.book(9)) == nil)
        #expect(try await lib.catalogue.all().first == dune)
        #expect(try await lib.catalogue.books(withISBN: try ISBN(parsing: "9780441172719")) == [Self.book(1)])
        #expect(try await lib.catalogue.books(withISBN: try ISBN(parsing: "0-441-47812-3")) == [])
        await lib.postgres?.close()
    }

    @Test("edits, copies, loans, holds and withdrawals change what is listed and found", arguments: LibraryFactory.all)
    func changes(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.add(1, "Dnue", by: ["Frank Herbert"], isbn: "0-441-17271-7", copies: 2, lib)
        try await Self.add(2, "Emma", by: ["Jane Austen"], isbn: "0-441-17271-7", lib)
        let (dune, emma) = (Self.book(1), Self.book(2))
        let edited = BookDetails(title: "Dune", authors: ["Frank Herbert"], publisher: "Chilton")
        try await lib.append(
            .book(dune), .book(.edited(BookEdited(book: dune, details: edited))),
            .book(.copiesAdded(CopiesChanged(book: dune, count: 1, total: 3))))
        let find = { (q: String) in try await Self.titles(CatalogueQuery(sort: .title, text: q), lib) }
        #expect(try await find("dnue") == [])
        #expect(try await find("dune chilton") == ["Dune"])
        #expect(try await find("0441172717") == ["Emma"], "the edit took the ISBN away")
        #expect(try await lib.catalogue.books(withISBN: try ISBN(parsing: "0441172717")) == [emma])
        let changed = try await lib.catalogue.entry(dune)
        #expect(changed?.copies == 3 && changed?.details == edited)
        // Two copies lent, one set aside for a member who waited: none on the shelf.
        try await lib.append(
            .book(dune), .book(.copyLent(CopyMovement(book: dune, loan: L.loanID(1), onLoan: 1))),
            .book(.copyLent(CopyMovement(book: dune, loan: L.loanID(2), onLoan: 2))))
        typealias H = HoldRegisterContractTests
        try await lib.append(
            .holds(dune), H.placed(1, on: dune, by: 1), H.placed(2, on: dune, by: 2), H.setAside(1, on: dune, for: 1, until: L.start))
        let entry = try await lib.catalogue.entry(dune)
        #expect(entry?.onLoan == 2 && entry?.holdCount == 2 && entry?.setAside == 1 && entry?.available == 0)
        #expect(try await Self.titles(CatalogueQuery(sort: .title, availableOnly: true), lib) == ["Emma"])
        try await lib.append(.book(dune), .book(.copyReturned(CopyMovement(book: dune, loan: L.loanID(1), onLoan: 1))))
        #expect(try await Self.titles(CatalogueQuery(sort: .title, availableOnly: true), lib) == ["Dune", "Emma"])
        #expect(try await lib.catalogue.page(CatalogueQuery(text: "dune", availableOnly: true), .first).total == 1)
        try await lib.append(.book(dune), .book(.copiesRemoved(CopiesChanged(book: dune, count: 1, total: 2))))
        #expect(try await Self.titles(CatalogueQuery(sort: .title, availableOnly: true), lib) == ["Emma"])
        try await lib.append(.book(emma), .book(.withdrawn(BookWithdrawn(book: emma))))
        #expect(try await lib.catalogue.entry(emma) == nil)
        #expect(try await lib.catalogue.allIDs() == [dune])
        #expect(try await find("emma") == [])
        #expect(try await lib.catalogue.books(withISBN: try ISBN(parsing: "0441172717")) == [])
        #expect(try await lib.catalogue.page(CatalogueQuery(), .first).total == 1)
        try await lib.append(.book(emma), .book(.edited(BookEdited(book: emma, details: edited))))
        #expect(try await lib.catalogue.allIDs() == [dune], "an edit of a withdrawn book adds nothing back")
        await lib.postgres?.close()
    }

    @Test(
        "a book's last checkout names its borrower as they are called now, and no one once they closed their account",
        arguments: LibraryFactory.all)
    func lastCheckout(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.add(1, "Dune", by: ["Frank Herbert"], lib)
        try await Self.add(2, "Emma", by: ["Jane Austen"], lib)
        let (dune, emma) = (Self.book(1), Self.book(2))
        try await lib.append(.loan(L.loanID(1)), L.opened(1, book: dune, to: L.ada, name: "Ada", due: L.start))
        try await lib.append(.loan(L.loanID(2)), L.opened(2, book: emma, to: L.bob, name: "Bob", due: L.start))
        let lent = L.stored(L.start - 30 * L.day)
        #expect(try await lib.catalogue.entry(dune)?.lastCheckout == CatalogueEntry.Checkout(name: "Ada", at: lent))
        try await lib.append(.user(L.ada), .user(.profileChanged(ProfileChanged(user: L.ada, displayName: "Ada L."))))
        try await lib.append(.user(L.bob), .user(.profileChanged(ProfileChanged(user: L.bob, country: "FR"))))
        #expect(try await lib.catalogue.entry(dune)?.lastCheckout?.name == "Ada L.")
        #expect(try await lib.catalogue.entry(emma)?.lastCheckout?.name == "Bob")
        try await lib.append(.user(L.bob), .user(.closed(UserClosed(user: L.bob))))
        #expect(try await lib.catalogue.entry(emma)?.lastCheckout == CatalogueEntry.Checkout(name: "", at: lent))
        #expect(try await lib.catalogue.entry(dune)?.lastCheckout?.name == "Ada L.")
        #expect(try await lib.catalogue.all().map(\.lastCheckout?.name) == ["Ada L.", ""])
        await lib.postgres?.close()
    }

    @Test("a rebuild gives the same answers", arguments: LibraryFactory.all)
    func rebuild(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.shelf(lib)
        try await Self.add(8, "Les Misérables", by: ["Victor Hugo"], isbn: "0-441-17271-7", lib)
        try await lib.append(.book(Self.book(3)), .book(.withdrawn(BookWithdrawn(book: Self.book(3)))))
        try await lib.append(.loan(L.loanID(1)), L.opened(1, book: Self.book(8), to: L.ada, name: "Ada", due: L.start))
        let queries = CatalogueSort.allCases.flatMap { sort in
            ["", "hob", "misérables", "9780441172719", "author:zola"].map { CatalogueQuery(sort: sort, text: $0.isEmpty ? nil : $0) }
        }
        func answers() async throws -> [[CatalogueEntry]] {
            var answers = [try await lib.catalogue.all()]
            for query in queries { answers.append(try await lib.catalogue.page(query, .first).items) }
            return answers
        }
        let before = try await answers()
        try await lib.rebuild()
        #expect(try await answers() == before)
        #expect(before[0].count == 7 && before.dropFirst().allSatisfy { !$0.isEmpty })
        await lib.postgres?.close()
    }
}
