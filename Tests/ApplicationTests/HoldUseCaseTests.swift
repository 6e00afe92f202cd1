import Application
import Domain
import Foundation
import Testing

/// A library with members and books for the hold tests, on a real SQLite file and a manual clock.
struct HoldLibrary {
    let t: TestLibrary
    var circulation: CirculationUseCases { t.library.circulation }
    var holds: HoldUseCases { t.library.circulation.holds }
    let day: TimeInterval = 24 * 3600
    init() throws { t = try TestLibrary() }

    func book(_ title: String, copies: Int = 1) async throws -> BookID {
        try await t.library.catalogue.addBook.execute(BookDraft(title: title, authors: ["A"]), copies: copies, by: .cliOperator).id
    }

    func member(_ name: String) async throws -> Principal {
        let form = SignupForm(email: "\(name)@example.org", password: "Member-Pass1", displayName: name, country: "FR")
        let token = try #require(try await t.library.accounts.signUp.execute(form, by: .anonymous).session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    func librarian() async throws -> Principal {
        let form = SignupForm(email: "lib@example.org", password: "Member-Pass1", displayName: "Lib", country: "FR")
        _ = try await t.library.accounts.signUp.execute(form, by: .anonymous)
        let id = try await t.library.accounts.members.find("lib@example.org", by: .cliOperator)
        _ = try await t.library.accounts.changeRole.execute(id, to: .librarian, by: .cliOperator)
        let token = try #require(
            try await t.library.accounts.logIn.execute(login: "lib@example.org", password: "Member-Pass1").session?.token)
        return try await t.library.accounts.authenticate.execute(token: token)
    }

    func line(_ book: BookID) async throws -> [HoldSummary] { try await holds.list.queue(of: book, by: .cliOperator).items }
    func mine(_ member: Principal) async throws -> [HoldSummary] { try await holds.list.mine(by: member).items }
    func notices(_ member: Principal) async throws -> [NoticeSummary] { try await circulation.notices.list(by: member).items }
}

@Suite("Holds: use cases on the real SQLite store")
struct HoldUseCaseTests {
    let h: HoldLibrary
    init() throws { h = try HoldLibrary() }
    var day: TimeInterval { h.day }

    @Test func aHoldIsPlacedOnlyOnABookWithNoCopyOnTheShelf() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        let refused = await #expect(throws: LoanRefused.self) { try await h.holds.place.execute(dune, by: bob) }
        #expect(refused?.english == "a copy of “Dune” is on the shelf: borrow it")
        _ = try await h.circulation.borrow.execute([dune], by: ada)
        let first = try await h.holds.place.execute(dune, by: bob)
        #expect(first.status == .waiting && first.position == 1 && first.copies == 1 && first.bookTitle == "Dune")
        #expect(try await h.holds.place.execute(dune, by: carol).position == 2)
        let twice = await #expect(throws: LoanRefused.self) { try await h.holds.place.execute(dune, by: bob) }
        #expect(twice?.english == "you already hold “Dune”: you are number 1 in line")
        let onLoan = await #expect(throws: LoanRefused.self) { try await h.holds.place.execute(dune, by: ada) }
        #expect(onLoan?.english.contains("you have “Dune” on loan already") == true)
        await #expect(throws: NotFound.self) { try await h.holds.place.execute(BookID(UUID()), by: bob) }
        await #expect(throws: Unauthenticated.self) { try await h.holds.place.execute(dune, by: .anonymous) }
    }

    @Test func aReturnSetsTheCopyAsideForTheFirstInLineAlone() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        let loan = try await h.circulation.borrow.execute([dune], by: ada)[0]
        _ = try await h.holds.place.execute(dune, by: bob)
        _ = try await h.holds.place.execute(dune, by: carol)
        h.t.clock.advance(by: day)
        _ = try await h.circulation.giveBack.execute(loan.id, by: ada)
        let ready = try #require(try await h.mine(bob).first)
        #expect(ready.status == .ready && ready.pickupUntil == h.t.clock.now().addingTimeInterval(3 * day) && ready.position == nil)
        #expect(try await h.mine(carol).first?.position == 1)
        let notice = try #require(try await h.notices(bob).first)
        #expect(notice.kind == .readyForPickup && notice.hold == ready.id && notice.loan == nil && notice.dueAt == ready.pickupUntil)
        #expect(try await h.notices(carol).isEmpty)
        // The catalogue shows the line, and the copy kept for Bob as not available.
        let shown = try await h.t.library.catalogue.showBook.execute(dune)
        #expect(shown.holdCount == 2 && shown.setAside == 1 && shown.available == 0 && shown.onLoan == 0)
        #expect(try await h.t.library.catalogue.listBooks.execute(CatalogueQuery(), by: .anonymous).items.first?.holdCount == 2)
        // Nobody else gets the copy kept for Bob: not Carol, not a walk-in.
        let kept = await #expect(throws: LoanRefused.self) { try await h.circulation.borrow.execute([dune], by: carol) }
        #expect(kept?.english.contains("kept for a member who waited for it") == true)
        await #expect(throws: LoanRefused.self) { try await h.circulation.checkout.execute(dune, borrowerName: "Hudson", by: .cliOperator) }
        // Bob borrows it: the hold is fulfilled and his holds are free again.
        let bobs = try await h.circulation.borrow.execute([dune], by: bob)[0]
        #expect(bobs.book == dune)
        #expect(try await h.mine(bob).isEmpty)
        #expect(try await h.line(dune).map(\.memberName) == ["carol"])
        #expect(try await h.t.library.catalogue.showBook.execute(dune).holdCount == 1)
    }

    @Test func whoeverTakesTheCopyBackIsToldWhomItIsKeptForIfTheyMaySeeIt() async throws {
        // Given Dune and Solaris lent to Ada, Bob waiting for Dune, nobody for Solaris
        let (dune, solaris) = (try await h.book("Dune"), try await h.book("Solaris"))
        let (ada, bob, lib) = (try await h.member("ada"), try await h.member("bob"), try await h.librarian())
        let loans = try await h.circulation.borrow.execute([dune, solaris], by: ada)
        _ = try await h.holds.place.execute(dune, by: bob)

        // When a librarian takes Dune back, the answer names Bob's hold, ready for pickup
        let dunes = try #require(loans.first { $0.book == dune }), solariss = try #require(loans.first { $0.book == solaris })
        let back = try await h.circulation.giveBack.execute(dunes.id, by: lib)
        let kept = try #require(back.setAsideFor)
        #expect(kept.memberName == "bob" && kept.status == .ready && kept.book == dune && kept.pickupUntil != nil)
        #expect(back.loan.returnedAt != nil && !back.returnedBefore)
        // Returned again: nothing more is set aside, and the answer says it had been returned
        let retried = try await h.circulation.giveBack.execute(dunes.id, by: lib)
        #expect(retried.setAsideFor == nil && retried.returnedBefore && retried.loan.returnedAt == back.loan.returnedAt)
        // Solaris, which nobody waits for, goes back on the shelf
        #expect(try await h.circulation.giveBack.execute(solariss.id, by: lib).setAsideFor == nil)

        // And a member returning her own loan is not told who waits (another member's hold)
        let again = try await h.circulation.borrow.execute([solaris], by: ada)[0]
        let carol = try await h.member("carol")
        _ = try await h.holds.place.execute(solaris, by: carol)
        let hers = try await h.circulation.giveBack.execute(again.id, by: ada)
        #expect(hers.setAsideFor == nil)
        #expect(try await h.mine(carol).first?.status == .ready)
    }

    @Test func cancellingMovesEveryoneBehindUpAndPassesAKeptCopyOn() async throws {
        let dune = try await h.book("Dune")
        let members = [try await h.member("ada"), try await h.member("bob"), try await h.member("carol"), try await h.member("dan")]
        let loan = try await h.circulation.borrow.execute([dune], by: members[0])[0]
        var placed: [HoldSummary] = []
        for member in members.dropFirst() { placed.append(try await h.holds.place.execute(dune, by: member)) }
        let carolCancels = try await h.holds.cancel.execute(placed[1].id, by: members[2])
        #expect(carolCancels.status == .cancelled)
        #expect(try await h.line(dune).map(\.position) == [1, 2])
        _ = try await h.holds.cancel.execute(placed[1].id, by: members[2])  // twice: nothing changes
        _ = try await h.circulation.giveBack.execute(loan.id, by: members[0])
        #expect(try await h.mine(members[1]).first?.status == .ready)
        _ = try await h.holds.cancel.execute(placed[0].id, by: members[1])  // Bob lets it go: Dan is next
        let dans = try #require(try await h.mine(members[3]).first)
        #expect(dans.status == .ready && dans.pickupUntil != nil)
        // Another member's hold is not found; a librarian may cancel any.
        await #expect(throws: NotFound.self) { try await h.holds.cancel.execute(dans.id, by: members[0]) }
        let librarian = try await h.librarian()
        #expect(try await h.holds.cancel.execute(dans.id, by: librarian).status == .cancelled)
        #expect(try await h.line(dune).isEmpty)
        #expect(try await h.t.library.catalogue.showBook.execute(dune).available == 1)
        // Found by an outside walk: Dan was not told, and kept his "ready for pickup" notice. A
        // member who cancels their own hold hears nothing more.
        #expect(try await h.notices(members[3]).map(\.kind) == [.holdCancelledAtDesk, .readyForPickup])
        #expect(try await h.notices(members[1]).map(\.kind) == [.readyForPickup])
        #expect(try await h.notices(members[2]).isEmpty)
    }

    @Test func thePeriodicScanExpiresAHoldOnceAndTheCopyGoesToTheNextInLine() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        let loan = try await h.circulation.borrow.execute([dune], by: ada)[0]
        let bobs = try await h.holds.place.execute(dune, by: bob)
        _ = try await h.holds.place.execute(dune, by: carol)
        _ = try await h.circulation.giveBack.execute(loan.id, by: ada)
        h.t.clock.advance(by: 3 * day - 1)
        #expect(try await h.holds.expire.execute(by: .system) == 0)
        h.t.clock.advance(by: 1)
        _ = try await h.circulation.scan.execute(by: .system)
        #expect(try await h.t.library.circulation.holds.list.queue(of: dune, by: .cliOperator).items.map(\.memberName) == ["carol"])
        #expect(try await h.holds.expire.execute(by: .system) == 0)
        #expect(try await h.mine(bob).isEmpty)
        #expect(try await h.mine(carol).first?.pickupUntil == h.t.clock.now().addingTimeInterval(3 * day))
        #expect(try await h.notices(carol).map(\.kind) == [.readyForPickup])
        _ = bobs
        h.t.clock.advance(by: 3 * day)
        #expect(try await h.holds.expire.execute(by: .system) == 1)
        #expect(try await h.line(dune).isEmpty)
        // Each is told the hold ended (found by an outside walk: the ready notice stayed alone).
        #expect(try await h.notices(bob).map(\.kind) == [.holdExpired, .readyForPickup])
        #expect(try await h.notices(carol).map(\.kind) == [.holdExpired, .readyForPickup])
        #expect(try await h.t.library.catalogue.showBook.execute(dune).available == 1, "back on the shelf")
    }

    @Test func theHoldLimitAndTheOverdueBlock() async throws {
        let ada = try await h.member("ada")
        let bob = try await h.member("bob")
        var books: [BookID] = []
        for n in 1...6 {
            let book = try await h.book("Book \(n)")
            // Six walk-in borrowers, one copy each: a name may have 5 out (SHELFMARK_MAX_WALKIN_LOANS).
            _ = try await h.circulation.checkout.execute(book, borrowerName: "Walk-in \(n)", by: .cliOperator)
            books.append(book)
        }
        for book in books.prefix(5) { _ = try await h.holds.place.execute(book, by: ada) }
        let limit = await #expect(throws: LoanRefused.self) { try await h.holds.place.execute(books[5], by: ada) }
        #expect(limit?.english == "you have 5 holds, the most allowed; cancel one to place another")
        _ = try await h.holds.cancel.execute(try #require(try await h.mine(ada).first?.id), by: ada)
        #expect(try await h.holds.place.execute(books[5], by: ada).status == .waiting)

        let own = try await h.book("Own")
        _ = try await h.circulation.borrow.execute([own], by: bob)
        h.t.clock.advance(by: 15 * day)
        let blocked = await #expect(throws: LoanRefused.self) { try await h.holds.place.execute(books[0], by: bob) }
        #expect(blocked?.english.hasPrefix("please return your overdue book first: “Own”") == true)
        #expect(blocked?.forHold == true, "a hold refused, not a loan")
    }

    @Test func renewingIsRefusedWhileOthersWaitAndRenewAllReportsEachLoan() async throws {
        let (dune, emma) = (try await h.book("Dune"), try await h.book("Emma"))
        let (ada, bob) = (try await h.member("ada"), try await h.member("bob"))
        let loans = try await h.circulation.borrow.execute([dune, emma], by: ada)
        _ = try await h.holds.place.execute(dune, by: bob)
        let duneLoan = try #require(loans.first { $0.book == dune })
        let refused = await #expect(throws: LoanRefused.self) { try await h.circulation.renew.execute(duneLoan.id, by: ada) }
        #expect(
            refused?.english
                == "the loan of “Dune” cannot be renewed: another member is waiting for the book; please return it by its due date")
        let report = try await h.circulation.renewAll.execute(by: ada)
        #expect(report.count == 2)
        let emmaLoan = try #require(loans.first { $0.book == emma })
        #expect(report.first { $0.loan.book == emma }?.loan.dueAt == emmaLoan.dueAt.addingTimeInterval(14 * day))
        #expect(report.first { $0.loan.book == emma }?.refusal == nil)
        #expect(report.first { $0.loan.book == dune }?.refusal == LoanRefused(.othersWaiting(count: 1), title: "Dune"))
        #expect(report.first { $0.loan.book == dune }?.loan.dueAt == duneLoan.dueAt)
    }

    @Test func copiesAddedAreSetAsideAndCopiesKeptCannotBeRemoved() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        _ = try await h.circulation.borrow.execute([dune], by: ada)
        _ = try await h.holds.place.execute(dune, by: bob)
        _ = try await h.holds.place.execute(dune, by: carol)
        _ = try await h.t.library.catalogue.editBook.execute(dune, changes: BookChanges(), copies: 2, by: .cliOperator)
        #expect(try await h.mine(bob).first?.status == .ready)
        #expect(try await h.mine(carol).first?.status == .waiting)
        let kept = await #expect(throws: LoanRefused.self) {
            try await h.t.library.catalogue.editBook.execute(dune, changes: BookChanges(), copies: 1, by: .cliOperator)
        }
        #expect(kept?.english.contains("kept for members who waited") == true)
    }

    @Test func withdrawingABookCancelsItsHoldsAndTellsEachMember() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob) = (try await h.member("ada"), try await h.member("bob"))
        let loan = try await h.circulation.borrow.execute([dune], by: ada)[0]
        let bobs = try await h.holds.place.execute(dune, by: bob)
        _ = try await h.circulation.giveBack.execute(loan.id, by: ada)
        try await h.t.library.catalogue.withdrawBooks.execute([dune], by: .cliOperator)
        #expect(try await h.t.library.circulation.holds.list.mine(by: bob).items.isEmpty)
        #expect(try await h.notices(bob).map(\.kind) == [.holdCancelled, .readyForPickup])
        let hold = try await h.holds.cancel.execute(bobs.id, by: bob)
        #expect(hold.status == .cancelled)
    }

    @Test func librariansSeeABooksLineAndTheCopiesToSetAsideMembersOnlyTheirOwn() async throws {
        let (dune, emma) = (try await h.book("Dune"), try await h.book("Emma"))
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        let duneLoan = try #require(try await h.circulation.borrow.execute([dune, emma], by: ada).first { $0.book == dune })
        _ = try await h.holds.place.execute(dune, by: bob)
        _ = try await h.holds.place.execute(dune, by: carol)
        _ = try await h.holds.place.execute(emma, by: carol)
        _ = try await h.circulation.giveBack.execute(duneLoan.id, by: ada)
        let librarian = try await h.librarian()
        let line = try await h.holds.list.queue(of: dune, by: librarian).items
        #expect(line.map(\.memberName) == ["bob", "carol"] && line.map(\.position) == [nil, 1])
        let ready = try await h.holds.list.ready(by: librarian).items
        #expect(ready.map(\.memberName) == ["bob"] && ready.first?.bookTitle == "Dune")
        #expect(try await h.mine(carol).map(\.bookTitle) == ["Dune", "Emma"])
        await #expect(throws: Forbidden.self) { try await h.holds.list.queue(of: dune, by: carol) }
        await #expect(throws: Forbidden.self) { try await h.holds.list.ready(by: carol) }
    }

    @Test func auditAsOfAnswersWhoWasWaitingForABookAtAPastMoment() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        _ = try await h.circulation.borrow.execute([dune], by: ada)
        let bobs = try await h.holds.place.execute(dune, by: bob)
        h.t.clock.advance(by: h.day)
        _ = try await h.holds.place.execute(dune, by: carol)
        let march3 = h.t.clock.now()
        h.t.clock.advance(by: h.day)
        _ = try await h.holds.cancel.execute(bobs.id, by: bob)
        let then = try await h.t.library.timeTravel.execute(at: march3, view: .holds(book: dune), by: .cliOperator)
        #expect(then.holds.map(\.memberName) == ["bob", "carol"] && then.holds.map(\.position) == [1, 2])
        let now = try await h.t.library.timeTravel.execute(at: h.t.clock.now(), view: .holds(book: dune), by: .cliOperator)
        #expect(now.holds.map(\.memberName) == ["carol"] && now.holds.first?.position == 1)
    }
}
