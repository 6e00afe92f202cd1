import Application
import Domain
import Foundation
import InMemory
import Testing

@Suite("Catalogue use cases")
struct CatalogueUseCaseTests {
    let t: TestLibrary
    var catalogue: CatalogueUseCases { t.library.catalogue }

    init() throws { t = try TestLibrary() }

    @discardableResult
    func add(_ title: String, by author: String, isbn: String? = nil, copies: Int = 1) async throws -> CatalogueEntry {
        let entry = try await catalogue.addBook.execute(
            BookDraft(title: title, authors: [author], isbn: isbn), copies: copies, by: .cliOperator)
        t.clock.advance(by: 60)
        return entry
    }

    @Test func anAddedBookIsReadableAtOnce() async throws {
        let entry = try await add("Dune", by: "Frank Herbert", isbn: "0-441-17271-7", copies: 3)
        #expect(entry.details.isbn?.isbn13 == "9780441172719")
        #expect(entry.copies == 3 && entry.available == 3)
        #expect(try await catalogue.showBook.execute(entry.id) == entry)
    }

    @Test func listingSortsAndPages() async throws {
        try await add("Beta", by: "Zed")
        try await add("alpha", by: "Young")
        try await add("Gamma", by: "Émile")
        let titles = { (sort: CatalogueSort) in try await catalogue.listBooks.execute(CatalogueQuery(sort: sort)).items.map(\.details.title)
        }
        #expect(try await titles(.newest) == ["Gamma", "alpha", "Beta"])
        #expect(try await titles(.oldest) == ["Beta", "alpha", "Gamma"])
        #expect(try await titles(.title) == ["alpha", "Beta", "Gamma"])
        #expect(try await titles(.author) == ["Gamma", "alpha", "Beta"])

        let first = try await catalogue.listBooks.execute(CatalogueQuery(sort: .title), page: try PageRequest(limit: 2))
        #expect(first.items.count == 2 && first.total == 3 && first.nextOffset == 2)
        let last = try await catalogue.listBooks.execute(CatalogueQuery(sort: .title), page: try PageRequest(limit: 2, offset: 2))
        #expect(last.items.map(\.details.title) == ["Gamma"] && last.nextOffset == nil)
    }

    @Test func searchFindsWordPrefixesInEveryField() async throws {
        try await add("The Left Hand of Darkness", by: "Ursula K. Le Guin", isbn: "0-441-47812-3")
        try await add("Dune", by: "Frank Herbert", isbn: "978-0-441-17271-9")
        let find = { (text: String) in try await catalogue.listBooks.execute(CatalogueQuery(text: text)).items.map(\.details.title) }
        #expect(try await find("dark") == ["The Left Hand of Darkness"])
        #expect(try await find("guin left") == ["The Left Hand of Darkness"])
        #expect(try await find("herbert") == ["Dune"])
        #expect(try await find("978-0-441-17271-9") == ["Dune"])
        #expect(try await find("0441478123") == ["The Left Hand of Darkness"])
        #expect(try await find("\"unbalanced") == [])
        #expect(try await find("nothing-like-this").isEmpty)
    }

    @Test func pagesBeyondTheEndAreEmptyWithTheTotal() async throws {
        try await add("Dune", by: "Frank Herbert")
        let past = try await catalogue.listBooks.execute(CatalogueQuery(), page: try PageRequest(limit: 5, offset: 7))
        #expect(past.items.isEmpty && past.total == 1 && past.nextOffset == nil && past.offset == 7 && past.limit == 5)
    }

    @Test func editingChangesDetailsAndCopiesTogether() async throws {
        let entry = try await add("Dnue", by: "Frank Herbert")
        let edited = try await catalogue.editBook.execute(entry.id, changes: BookChanges(title: "Dune"), copies: 4, by: .cliOperator)
        #expect(edited.details.title == "Dune" && edited.copies == 4)
        #expect(edited.updatedAt > entry.updatedAt)
        #expect(try await catalogue.listBooks.execute(CatalogueQuery(text: "dune")).total == 1)
    }

    @Test func invalidEditsReportEveryFieldAndChangeNothing() async throws {
        let entry = try await add("Dune", by: "Frank Herbert")
        await #expect(
            throws: BookRefused(
                entry.id,
                .invalid([
                    FieldError("isbn", .notAnISBN("123", .wrongLength(3))),
                    FieldError("copies", .noCopies(wouldBe: 0)),
                ]))
        ) {
            try await catalogue.editBook.execute(entry.id, changes: BookChanges(isbn: "123"), copies: 0, by: .cliOperator)
        }
        #expect(try await catalogue.showBook.execute(entry.id) == entry)
    }

    @Test func unknownBooksAreNotFound() async throws {
        let ghost = BookID(UUID())
        await #expect(throws: NotFound(.book, ghost.description)) { try await catalogue.showBook.execute(ghost) }
        await #expect(throws: NotFound(.book, ghost.description)) {
            try await catalogue.editBook.execute(ghost, changes: BookChanges(title: "X"), by: .cliOperator)
        }
        #expect(throws: NotFound(.book, "not-an-id")) { try BookID.parse("not-an-id") }
    }

    @Test func withdrawingSeveralIsAllOrNothing() async throws {
        let a = try await add("A", by: "X")
        let b = try await add("B", by: "X")
        let ghost = BookID(UUID())
        await #expect(throws: NotFound.self) { try await catalogue.withdrawBooks.execute([a.id, ghost, b.id], by: .cliOperator) }
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 2)

        #expect(try await catalogue.withdrawBooks.execute([a.id, b.id, a.id], by: .cliOperator) == 2)
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 0)
        #expect(try await catalogue.withdrawBooks.execute([a.id], by: .cliOperator) == 0)
        await #expect(throws: NotFound.self) { try await catalogue.showBook.execute(a.id) }
    }

    @Test func clearingWithdrawsEveryBookInOneStep() async throws {
        for n in 1...5 { try await add("Book \(n)", by: "X") }
        let report = try await catalogue.clearCatalogue.execute(by: .cliOperator)
        #expect(report.withdrawn.count == 5 && report.kept.isEmpty)
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 0)
        #expect(try await catalogue.clearCatalogue.execute(by: .cliOperator).withdrawn.isEmpty)
    }

    @Test func concurrentEditsOfOneBookAreRetriedAndAllApplied() async throws {
        let entry = try await add("Counted", by: "X")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 2...21 {
                group.addTask {
                    _ = try await catalogue.editBook.execute(entry.id, changes: BookChanges(description: "edit \(n)"), by: .cliOperator)
                }
            }
            try await group.waitForAll()
        }
        let log = try await t.database.eventStore.read(.book(entry.id))
        #expect(log.count == 21)
        #expect(log.map(\.version) == Array(1...21))
    }

    @Test func onlyLibrariansAndTheOperatorChangeTheCatalogue() async throws {
        let draft = BookDraft(title: "T", authors: ["A"])
        let member = Principal.user(UserID(UUID()), .member, SessionID(UUID()))
        await #expect(throws: Unauthenticated()) { try await catalogue.addBook.execute(draft, copies: 1, by: .anonymous) }
        await #expect(throws: Forbidden.self) { try await catalogue.addBook.execute(draft, copies: 1, by: member) }
        await #expect(throws: Forbidden.self) { try await catalogue.clearCatalogue.execute(by: member) }
        let librarian = Principal.user(UserID(UUID()), .librarian, SessionID(UUID()))
        let entry = try await catalogue.addBook.execute(draft, copies: 1, by: librarian)
        await #expect(throws: Forbidden.self) { try await catalogue.withdrawBooks.execute([entry.id], by: member) }
        await #expect(throws: Forbidden.self) {
            try await catalogue.editBook.execute(entry.id, changes: BookChanges(title: "U"), by: member)
        }
        #expect(try await catalogue.listBooks.execute(CatalogueQuery()).total == 1)
    }

    @Test func eventsRecordWhoWhenAndACorrelation() async throws {
        let entry = try await catalogue.addBook.execute(BookDraft(title: "T", authors: ["A"]), copies: 1, by: .cliOperator)
        let event = try #require(try await t.database.eventStore.read(.book(entry.id)).first)
        #expect(event.metadata.actor == "operator")
        #expect(event.metadata.recordedAt == t.clock.now())
    }
}

@Suite("Queries never touch the event store")
struct QueryIsolationTests {
    @Test func listingAndShowingReadOnlyTheReadModel() async throws {
        let t = try TestLibrary()
        let entry = try await t.library.catalogue.addBook.execute(BookDraft(title: "T", authors: ["A"]), copies: 1, by: .cliOperator)
        let runner = CommandRunner(store: FailingEventStore(), clock: t.clock, ids: SequentialIDs(), random: FixedRandom())
        let queries = CatalogueUseCases(runner: runner, catalogue: t.database.catalogue, loans: t.database.loans)
        #expect(try await queries.listBooks.execute(CatalogueQuery()).total == 1)
        #expect(try await queries.showBook.execute(entry.id) == entry)
        await #expect(throws: FailingEventStore.Touched.self) {
            try await queries.editBook.execute(entry.id, changes: BookChanges(title: "U"), by: .cliOperator)
        }
    }
}
