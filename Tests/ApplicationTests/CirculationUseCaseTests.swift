import Application
import Domain
import Foundation
import Testing
import Wording

@Suite("Circulation use cases on the real SQLite store")
struct CirculationUseCaseTests {
    let t: TestLibrary
    var circulation: CirculationUseCases { t.library.circulation }
    init() throws { t = try TestLibrary() }
    let day: TimeInterval = 24 * 3600

    func book(_ title: String, copies: Int = 1) async throws -> BookID {
        try await t.library.catalogue.addBook.execute(BookDraft(title: title, authors: ["A"]), copies: copies, by: .cliOperator).id
    }

    func member(_ email: String) async throws -> Principal {
        let form = SignupForm(email: email, password: "Member-Pass1", displayName: String(email.prefix { $0 != "@" }), country: "FR")
        let token = try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    func available(_ id: BookID) async throws -> Int { try await t.library.catalogue.showBook.execute(id).available }

    @Test func borrowReturnAndTheCopyIsBackAtOnce() async throws {
        let dune = try await book("Dune", copies: 2)
        let ada = try await member("ada@example.org")
        let loans = try await circulation.borrow.execute([dune], by: ada)
        #expect(loans.count == 1 && loans[0].dueAt == t.clock.now().addingTimeInterval(14 * day) && loans[0].borrowerName == "ada")
        #expect(try await available(dune) == 1)
        let entry = try await t.database.catalogue.entry(dune)
        #expect(entry?.onLoan == 1)
        let returned = try await circulation.giveBack.execute(loans[0].id, by: ada)
        #expect(returned.loan.returnedAt != nil)
        #expect(try await available(dune) == 2)
        _ = try await circulation.giveBack.execute(loans[0].id, by: ada)  // twice: nothing changes
        #expect(try await available(dune) == 2)
        #expect(try await circulation.list.mine(by: ada).items.count == 1)
    }

    @Test func aRequestIsAllOrNothing() async throws {
        let a = try await book("A")
        let b = try await book("B")
        let gone = try await book("Gone")
        let bob = try await member("bob@example.org")
        _ = try await circulation.borrow.execute([gone], by: bob)
        let ada = try await member("ada@example.org")
        await #expect(throws: BookRefused(gone, .noCopyAvailable(book: gone, copies: 1), title: "Gone")) {
            try await circulation.borrow.execute([a, b, gone], by: ada)
        }
        #expect(try await available(a) == 1)
        #expect(try await available(b) == 1)
        #expect(try await circulation.list.mine(by: ada).items.isEmpty)
    }

    @Test func theLimitAndTheOverdueBlock() async throws {
        var books: [BookID] = []
        for n in 1...7 { books.append(try await book("Book \(n)")) }
        let ada = try await member("ada@example.org")
        _ = try await circulation.borrow.execute(Array(books[0..<3]), by: ada)
        await #expect(throws: LoanRefused(.limitReached(max: 5, active: 3, requested: 3))) {
            try await circulation.borrow.execute(Array(books[3..<6]), by: ada)
        }
        await #expect(throws: LoanRefused(.tooManyInOneRequest(max: 5))) {
            try await circulation.borrow.execute(Array(books[0..<6]), by: try await member("bob@example.org"))
        }
        t.clock.advance(by: 15 * day)
        await #expect(throws: LoanRefused.self) { try await circulation.borrow.execute([books[6]], by: ada) }
    }

    @Test func theOverdueBlockNamesTheOverdueBooksAndTheirDueDates() async throws {
        let dune = try await book("Dune")
        let emma = try await book("Emma")
        let ada = try await member("ada@example.org")
        let due = try await circulation.borrow.execute([dune, emma], by: ada).map(\.dueAt)
        t.clock.advance(by: 15 * day)
        let ulysses = try await book("Ulysses")
        let refused = await #expect(throws: LoanRefused.self) { try await circulation.borrow.execute([ulysses], by: ada) }
        let text = try #require(refused?.english)
        let day = Formats(.english).day(try #require(due.first))
        let listed = ["“Dune” (due \(day)) and “Emma” (due \(day))", "“Emma” (due \(day)) and “Dune” (due \(day))"]
        #expect(listed.map { "please return your overdue books first: \($0)" }.contains(text), "\(text)")
        let loanID = try await circulation.list.mine(by: ada).items[0].id
        #expect(!text.contains(loanID.description))
    }

    @Test func aBookAskedTwiceIsNamedByItsTitle() async throws {
        let dune = try await book("Dune", copies: 2)
        let ada = try await member("ada@example.org")
        _ = try await circulation.borrow.execute([dune], by: ada)
        let refused = await #expect(throws: LoanRefused.self) { try await circulation.borrow.execute([dune], by: ada) }
        #expect(refused?.english == "“Dune” is asked for twice, or is already borrowed by you")
    }

    @Test func renewalsExtendTheDueDateUpToTheLimit() async throws {
        let ada = try await member("ada@example.org")
        let loan = try await circulation.borrow.execute([try await book("Dune")], by: ada)[0]
        t.clock.advance(by: day)
        #expect(try await circulation.renew.execute(loan.id, by: ada).dueAt == loan.dueAt.addingTimeInterval(14 * day))
        _ = try await circulation.renew.execute(loan.id, by: ada)
        let limit = LoanRefused(.renewalLimitReached(max: 2), title: "Dune")
        await #expect(throws: limit) { try await circulation.renew.execute(loan.id, by: ada) }
        #expect(limit.english.hasPrefix("the loan of “Dune” was renewed twice already"))
        let bob = try await member("bob@example.org")
        // Another member's loan is not found, like an unknown one.
        await #expect(throws: NotFound(.loan, loan.id.description)) { try await circulation.giveBack.execute(loan.id, by: bob) }
    }

    @Test func twoHundredMembersRaceForThreeCopies() async throws {
        let dune = try await book("Dune", copies: 3)
        var members: [Principal] = []
        for n in 1...200 { members.append(try await member("m\(n)@example.org")) }
        let circulation = self.circulation
        let outcomes = await withTaskGroup(of: String.self) { group in
            for principal in members {
                group.addTask {
                    do { _ = try await circulation.borrow.execute([dune], by: principal); return "lent" } catch let error as BookRefused {
                        return error.rejection == .noCopyAvailable(book: dune, copies: 3) ? "no copy" : "other: \(error)"
                    } catch { return "other: \(error)" }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes == ["lent": 3, "no copy": 197])
        let active = try await circulation.list.active(by: .cliOperator)
        #expect(active.total == 3)
        #expect(try await available(dune) == 0)
    }

    @Test func oneMemberFiringTwentyRequestsNeverPassesFive() async throws {
        var books: [BookID] = []
        for n in 1...20 { books.append(try await book("Book \(n)")) }
        let ada = try await member("ada@example.org")
        let circulation = self.circulation
        let lent = await withTaskGroup(of: Int.self) { group in
            for book in books { group.addTask { (try? await circulation.borrow.execute([book], by: ada))?.count ?? 0 } }
            return await group.reduce(0, +)
        }
        #expect(lent == 5)
        #expect(try await circulation.list.mine(by: ada).total == 5)
    }

    @Test func walkInCheckoutShowsAsLastCheckout() async throws {
        let dune = try await book("Dune")
        let loan = try await circulation.checkout.execute(dune, borrowerName: " Mrs Hudson ", by: .cliOperator)
        #expect(loan.borrower == nil && loan.borrowerName == "Mrs Hudson")
        let entry = try await t.database.catalogue.entry(dune)
        #expect(entry?.onLoan == 1)
        #expect(try await circulation.list.active(by: .cliOperator).items.map(\.borrowerName) == ["Mrs Hudson"])
        let withdraw = t.library.catalogue.withdrawBooks
        let refused = await #expect(throws: BookRefused.self) { try await withdraw.execute([dune], by: .cliOperator) }
        #expect(refused?.english == "“Dune” has 1 copy on loan, so it cannot be withdrawn until it is returned")
        let report = try await t.library.catalogue.clearCatalogue.execute(by: .cliOperator)
        #expect(report.withdrawn.isEmpty && report.kept.map(\.book) == [dune])
    }

    @Test func noticesAreIssuedExactlyOnceWhateverTheScans() async throws {
        let ada = try await member("ada@example.org")
        let first = try await circulation.borrow.execute([try await book("One")], by: ada)[0]
        t.clock.advance(by: day)
        _ = try await circulation.borrow.execute([try await book("Two")], by: ada)
        #expect(try await circulation.scan.execute(by: .system) == 0)
        t.clock.advance(by: 12 * day + 60)  // One due in < 2 days
        let scan = circulation.scan
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 1...8 { group.addTask { (try? await scan.execute(by: .system)) ?? -100 } }
            return await group.reduce(0, +)
        }
        #expect(counts == 2)  // due-soon for both loans (Two is due in exactly 1 day + 23h59)
        t.clock.advance(by: 30 * day)
        #expect(try await circulation.scan.execute(by: .system) == 2)  // overdue for both
        #expect(try await circulation.scan.execute(by: .system) == 0)
        let notices = try await circulation.notices.list(by: ada)
        #expect(notices.unread == 4 && notices.items.count == 4)
        try await circulation.notices.markRead(notices.items[0].id, by: ada)
        #expect(try await circulation.notices.list(by: ada).unread == 3)
        let bob = try await member("bob@example.org")
        #expect(try await circulation.notices.list(by: bob).items.isEmpty)
        await #expect(throws: NotFound.self) { try await circulation.notices.markRead(notices.items[1].id, by: bob) }
        try await circulation.notices.markRead(nil, by: ada)
        #expect(try await circulation.notices.list(by: ada).unread == 0)
        _ = first
    }
}
