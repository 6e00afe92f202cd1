import Application
import Domain
import Foundation
import SQLiteStore
import Testing

/// Walks a list page by page at `limit`, checking each page's envelope on the way.
func walkPages<Item>(limit: Int, _ fetch: (PageRequest) async throws -> Page<Item>) async throws -> (items: [Item], total: Int) {
    var items: [Item] = []
    var request = try PageRequest(limit: limit)
    var totals: Set<Int> = []
    while true {
        let page = try await fetch(request)
        #expect(page.offset == request.offset && page.limit == limit && page.items.count <= limit)
        totals.insert(page.total)
        items += page.items
        guard let next = page.nextOffset else { break }
        #expect(next == page.offset + page.items.count && page.items.count == limit)
        request = try PageRequest(limit: limit, offset: next)
    }
    #expect(totals.count == 1 && totals.first == items.count, "every page told the same total, and it was reached")
    return (items, totals.first ?? 0)
}

@Suite("Paging: one page request for every list")
struct PageRequestTests {
    @Test func defaultsAndTheLargestPage() throws {
        #expect(PageRequest.first.limit == 20 && PageRequest.first.offset == 0)
        #expect(try PageRequest() == .first)
        #expect(try PageRequest(limit: 100, offset: 1_000_000).limit == 100)
    }

    @Test(
        "a limit or offset out of range is a field error that says the range",
        arguments: [
            (0, 0, ["limit"]), (101, 0, ["limit"]), (-1, 0, ["limit"]), (Int.max, 0, ["limit"]), (Int.min, 0, ["limit"]),
            (20, -1, ["offset"]), (20, 1_000_001, ["offset"]), (20, Int.max, ["offset"]), (0, -1, ["limit", "offset"]),
        ])
    func outOfRange(limit: Int, offset: Int, fields: [String]) {
        #expect(throws: InvalidInput.self) { try PageRequest(limit: limit, offset: offset) }
        let problems = PageRequest.problems(limit: limit, offset: offset)
        #expect(problems.map(\.field) == fields)
        #expect(
            problems.map(\.problem).allSatisfy {
                $0 == .outOfRange(min: 1, max: 100) || $0 == .outOfRange(min: 0, max: 1_000_000)
            })
    }

    @Test func aListHeldInMemoryIsSlicedWithoutOverflow() async throws {
        let all = Array(1...5)
        #expect(Page(slicing: all, try PageRequest(limit: 2, offset: 4)).items == [5])
        let past = Page(slicing: all, try PageRequest(limit: 100, offset: PageRequest.maxOffset))
        #expect(past.items.isEmpty && past.total == 5 && past.nextOffset == nil)
        let walked = try await Page.all { Page(slicing: Array(0..<250), $0) }
        #expect(walked == Array(0..<250))
    }
}

/// Each read model pages in SQL: walking the pages gives every item once, in the order of the whole list.
@Suite("Paging: the SQLite read models")
struct ReadModelPagingTests {
    let t: TestLibrary
    init() throws { t = try TestLibrary() }

    func member(_ email: String) async throws -> Principal {
        let form = SignupForm(email: email, password: "Member-Pass1", displayName: String(email.prefix { $0 != "@" }), country: "FR")
        let token = try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    func books(_ count: Int, title: (Int) -> String = { "Book \($0)" }) async throws -> [BookID] {
        var ids: [BookID] = []
        for n in 0..<count {
            let draft = BookDraft(title: title(n), authors: ["A"])
            ids.append(try await t.library.catalogue.addBook.execute(draft, copies: 3, by: .cliOperator).id)
        }
        return ids
    }

    @Test func loansWithTheSameDueDateArePagedByID() async throws {
        let shelf = try await books(5)
        var borrowers: [Principal] = []
        for name in ["ada", "bob", "cy"] {
            let borrower = try await member("\(name)@example.org")
            _ = try await t.library.circulation.borrow.execute(shelf, by: borrower)  // five loans due at the same instant
            borrowers.append(borrower)
        }
        let first = try #require(try await t.library.circulation.list.mine(by: borrowers[0]).items.first)
        _ = try await t.library.circulation.giveBack.execute(first.id, by: borrowers[0])

        let every = try await t.database.loans.loans(LoanFilter(includeReturned: true))
        #expect(every.count == 15)
        for limit in [1, 2, 4, 100] {
            let walked = try await walkPages(limit: limit) { try await t.database.loans.loans(LoanFilter(includeReturned: true), page: $0) }
            #expect(walked.items.map(\.id) == every.map(\.id))
            #expect(Set(walked.items.map(\.id)).count == 15)
        }
        let active = try await walkPages(limit: 3) { try await t.library.circulation.list.active(page: $0, by: .cliOperator) }
        #expect(active.total == 14)
        let adas = try await walkPages(limit: 2) { try await t.library.circulation.list.mine(page: $0, by: borrowers[0]) }
        #expect(adas.total == 5 && adas.items.last?.returnedAt != nil)
        let past = try await t.library.circulation.list.active(page: try PageRequest(offset: 14), by: .cliOperator)
        #expect(past.items.isEmpty && past.total == 14 && past.nextOffset == nil)
    }

    @Test func noticesArePagedWithTheUnreadCountOfAll() async throws {
        let shelf = try await books(5)
        let ada = try await member("ada@example.org")
        _ = try await t.library.circulation.borrow.execute(shelf, by: ada)
        t.clock.advance(by: 13 * 24 * 3600)
        #expect(try await t.library.circulation.scan.execute(by: .system) == 5)
        let whole = try await t.library.circulation.notices.list(page: try PageRequest(limit: 100), by: ada)
        let walked = try await walkPages(limit: 2) { try await t.library.circulation.notices.list(page: $0, by: ada).page }
        #expect(walked.items.map(\.id) == whole.items.map(\.id) && walked.total == 5)
        try await t.library.circulation.notices.markRead(walked.items[0].id, by: ada)
        let second = try await t.library.circulation.notices.list(page: try PageRequest(limit: 2, offset: 2), by: ada)
        #expect(second.items.count == 2 && second.unread == 4 && second.page.total == 5)
        try await t.library.circulation.notices.markRead(nil, by: ada)
        #expect(try await t.library.circulation.notices.list(page: try PageRequest(limit: 1), by: ada).unread == 0)
    }

    @Test func bookmarksAccountsHistoryAndTheCatalogueArePaged() async throws {
        let shelf = try await books(7, title: { "Same Title \($0 % 2)" })
        let ada = try await member("ada@example.org")
        for id in shelf { _ = try await t.library.bookmarks.add(book: id, by: ada) }
        for sort in BookmarkSort.allCases {
            let whole = try await t.library.bookmarks.list(sort: sort, page: try PageRequest(limit: 100), by: ada)
            let walked = try await walkPages(limit: 3) { try await t.library.bookmarks.list(sort: sort, page: $0, by: ada) }
            #expect(walked.items.map(\.key) == whole.items.map(\.key) && walked.total == 7)
        }
        for n in 0..<4 { _ = try await member("member\(n)@example.org") }
        let accounts = try await walkPages(limit: 2) { try await t.library.accounts.listUsers.execute(page: $0, by: .cliOperator) }
        #expect(accounts.items.map(\.email.value) == accounts.items.map(\.email.value).sorted() && accounts.total == 5)

        for copies in 4...8 {
            _ = try await t.library.catalogue.editBook.execute(shelf[0], changes: BookChanges(), copies: copies, by: .cliOperator)
        }
        let history = try await walkPages(limit: 4) {
            try await t.library.history.execute(.book(shelf[0].description), page: $0, by: .cliOperator)
        }
        #expect(history.items.map(\.version) == Array(1...6))
        let beyond = try await t.library.history.execute(.book(shelf[0].description), page: try PageRequest(offset: 50), by: .cliOperator)
        #expect(beyond.items.isEmpty && beyond.total == 6)

        let catalogue = try await walkPages(limit: 2) {
            try await t.library.catalogue.listBooks.execute(CatalogueQuery(sort: .title), page: $0)
        }
        #expect(Set(catalogue.items.map(\.id)) == Set(shelf))
    }

    @Test func countriesArePagedFromTheWholeList() async throws {
        let walked = try await walkPages(limit: 100) { try await t.library.accounts.countries.list(page: $0) }
        #expect(walked.total > 200 && walked.items.map(\.code).count == Set(walked.items.map(\.code)).count)
    }
}
