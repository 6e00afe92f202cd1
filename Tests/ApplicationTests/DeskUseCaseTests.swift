import Application
import Composition
import Domain
import Foundation
import InMemory
import SQLiteStore
import Security
import Testing

/// A library on a temporary SQLite file, with the random source and the walk-in limit a test picks.
struct DeskLibrary {
    let folder = TemporaryFolder()
    let clock = ManualClock()
    let library: Library
    let database: LibraryDatabase

    init(random: any RandomSource = SystemRandom(), walkInLimit: Int? = nil) throws {
        var configuration = ShelfmarkConfiguration(databasePath: folder.databasePath)
        configuration.durability = .off
        configuration.bcryptCost = 4
        if let walkInLimit { configuration.loanPolicy.maxWalkInLoans = walkInLimit }
        (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: SequentialIDs(), random: random)
    }

    func book(_ title: String, copies: Int = 1) async throws -> BookID {
        try await library.catalogue.addBook.execute(BookDraft(title: title, authors: ["A"]), copies: copies, by: .cliOperator).id
    }

    /// Signs `email` up (named by its local part) and logs it in: the principal and its account.
    func signUp(_ email: String, role: Role = .member) async throws -> (Principal, AccountSummary) {
        let form = SignupForm(email: email, password: "Member-Pass1", displayName: String(email.prefix { $0 != "@" }), country: "FR")
        let made = try await library.accounts.signUp.execute(form, role: role, by: role == .librarian ? .cliOperator : .anonymous)
        let session = try await library.accounts.logIn.execute(login: email, password: "Member-Pass1")
        return (try await library.accounts.authenticate.execute(token: try #require(session.session?.token)), made.account)
    }
}

@Suite("The front desk on the real SQLite store: cards, desk loans, walk-in borrowers")
struct DeskUseCaseTests {
    let t: DeskLibrary
    var desk: DeskUseCases { t.library.desk }
    init() throws { t = try DeskLibrary(walkInLimit: 2) }
    let day: TimeInterval = 24 * 3600

    @Test func everyMemberGetsACardAtSignupAndTheDeskFindsThemByIt() async throws {
        let (ada, account) = try await t.signUp("ada@example.org")
        let (librarian, _) = try await t.signUp("lib@example.org", role: .librarian)
        let card = try #require(account.cardNumber)
        #expect(try await t.library.accounts.showMe.execute(by: ada).cardNumber == card)
        #expect(try await desk.myCard.execute(by: ada).card == card)
        for name in [card.digits, card.grouped, "ada@example.org", account.id.description] {
            #expect(try await desk.showMember.execute(name, by: librarian).account.id == account.id, "\(name)")
        }
        let typo = String(card.digits.dropLast()) + (card.digits.last == "0" ? "1" : "0")
        await #expect(throws: InvalidInput("card", .notACardNumber(typo, .wrongCheckDigits))) {
            try await desk.lend.execute(to: .card(typo), books: [try await t.book("Dune")], by: librarian)
        }
        let nobody = CardNumber(serial: (card.serial + 50_000_000) % CardNumber.serials)
        await #expect(throws: NotFound(.card, nobody.grouped)) { try await desk.showMember.execute(nobody.digits, by: librarian) }
        await #expect(throws: Forbidden(.librarianOnly)) { try await desk.showMember.execute(card.digits, by: ada) }
    }

    @Test func aCardNamesItsMemberWhereverAMemberIsNamedAndAClosedAccountsCardNamesNobody() async throws {
        // Given Ada with a card, and a librarian
        let (ada, account) = try await t.signUp("ada@example.org")
        let (librarian, _) = try await t.signUp("lib@example.org", role: .librarian)
        let card = try #require(account.cardNumber)
        // When the librarian names her by card to issue a reset code, list her loans or find her
        // Then each finds Ada, as typed or grouped, a no-break space included
        #expect(try await t.library.accounts.passwords.issueResetCode.execute(card.grouped, by: librarian).account.id == account.id)
        #expect(try await desk.loans.execute(member: card.digits, by: librarian).total == 0)
        #expect(
            try await t.library.accounts.members.find("\(card.digits.prefix(5))\u{00A0}\(card.digits.suffix(5))", by: librarian)
                == account.id)
        // And a mistyped card is refused as one, as lending refuses it, rather than looked up
        let typo = String(card.digits.dropLast()) + (card.digits.last == "0" ? "1" : "0")
        await #expect(throws: InvalidInput("member", .notACardNumber(typo, .wrongCheckDigits))) {
            try await desk.showMember.execute(typo, by: librarian)
        }
        await #expect(throws: InvalidInput("member", .notACardNumber(typo, .wrongCheckDigits))) {
            try await desk.loans.execute(member: typo, by: librarian)
        }
        await #expect(throws: InvalidInput("member", .notACardNumber(String(card.digits.dropLast()), .wrongLength(9)))) {
            try await t.library.accounts.members.find(String(card.digits.dropLast()), by: librarian)
        }
        // When Ada closes her account, her card answers as a card nobody has: never her id
        try await t.library.accounts.closeAccount.own(by: ada)
        for lookup in [card.digits, card.grouped] {
            await #expect(throws: NotFound(.card, card.grouped)) { try await desk.showMember.execute(lookup, by: librarian) }
            await #expect(throws: NotFound(.card, card.grouped)) {
                try await desk.lend.execute(to: .card(lookup), books: [], by: librarian)
            }
            await #expect(throws: NotFound(.card, card.grouped)) { try await t.library.accounts.members.find(lookup, by: librarian) }
        }
    }

    @Test func aDeskLoanIsTheMembersOwnBorrowRecordedAsTheLibrariansDoing() async throws {
        let (ada, account) = try await t.signUp("ada@example.org")
        let (librarian, lib) = try await t.signUp("lib@example.org", role: .librarian)
        let books = try await (1...6).asyncMap { try await t.book("Book \($0)") }
        let card = try #require(account.cardNumber)
        let (member, lent) = try await desk.lend.execute(to: .card(card.grouped), books: Array(books[0..<2]), by: librarian)
        #expect(
            member.id == account.id && lent.map(\.borrower) == [account.id, account.id] && lent.allSatisfy { $0.borrowerName == "ada" })
        let opened = try await t.database.eventStore.read(.loan(lent[0].id), after: 0)
        #expect(opened.first?.metadata.actor == "user:\(lib.id)")
        // The member's own borrowing and the desk's share one limit (5): 2 + 2, then 2 more is refused naming her.
        _ = try await t.library.circulation.borrow.execute(Array(books[2..<4]), by: ada)
        let refused = await #expect(throws: LoanRefused.self) {
            try await desk.lend.execute(to: .email("ADA@example.org"), books: Array(books[4..<6]), by: librarian)
        }
        #expect(refused?.english == "ada has 4 books on loan and may have at most 5, so can borrow 1 more, not 2")
        #expect(try await t.library.circulation.list.mine(by: ada).items.count == 4, "all or nothing")
        // The overdue block, said of the member.
        t.clock.advance(by: 15 * day)
        let blocked = await #expect(throws: LoanRefused.self) {
            try await desk.lend.execute(to: .email("ada@example.org"), books: [books[5]], by: .cliOperator)
        }
        let overdue = blocked?.english ?? ""
        #expect(overdue.hasPrefix("ada must return the overdue books first: ") && overdue.contains("“Book 1” (due"), "\(overdue)")
        // Returns by the librarian: the desk's loan comes back, recorded as the librarian's doing.
        let back = try await t.library.circulation.giveBack.execute(lent[0].id, by: librarian)
        #expect(back.loan.returnedAt != nil && back.setAsideFor == nil)
        #expect(try await t.database.eventStore.read(.loan(lent[0].id), after: 0).last?.metadata.actor == "user:\(lib.id)")
    }

    @Test func theDeskNamesAMemberByExactlyOneOfCardAndEmail() throws {
        #expect(throws: InvalidInput("card", .exactlyOneOf(["card", "email"]))) { try DeskMember(card: "1", email: "a@b.org") }
        #expect(throws: InvalidInput("card", .exactlyOneOf(["card", "email"]))) { try DeskMember(card: nil, email: nil) }
        #expect(try DeskMember(card: nil, email: "a@b.org") == .email("a@b.org"))
    }

    @Test func concurrentSignupsDrawingTheSameNumberAllGetCardsOfTheirOwn() async throws {
        // Every draw gives the same serial: the signups race for one claim stream, then the next.
        let t = try DeskLibrary(random: FixedRandom(0.5))
        let accounts = try await withThrowingTaskGroup(of: AccountSummary.self) { group in
            for n in 1...12 {
                group.addTask {
                    let form = SignupForm(email: "m\(n)@example.org", password: "Member-Pass1", country: "FR")
                    return try await t.library.accounts.signUp.execute(form, openSession: false, by: .anonymous).account
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let serials = Set(accounts.compactMap { $0.cardNumber?.serial })
        #expect(serials == Set(50_000_000..<50_000_012))
        let librarian = Principal.cliOperator
        for account in accounts {
            let card = try #require(account.cardNumber)
            #expect(try await t.library.desk.showMember.execute(card.digits, by: librarian).account.id == account.id)
        }
        #expect(try await t.library.verifyLog.execute(by: .cliOperator).allSatisfy(\.passed))
    }

    @Test func membersFromBeforeCardsGetOneAtLoginOrAllAtOnce() async throws {
        let hash = try await BcryptPasswordHasher(cost: 4).hash("Member-Pass1")
        for (n, email) in ["old@example.org", "older@example.org"].enumerated() {
            let user = UserID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", 0xA00 + n))!)
            let address = try EmailAddress(parsing: email)
            let registered = UserRegistered(
                user: user, email: address, displayName: "Old", country: "FR", passwordHash: hash, role: .member)
            try await t.database.eventStore.append([
                StreamAppend(
                    .email(address), expected: .noStream,
                    events: [PendingEvent(.emailClaim(.claimed(EmailClaimed(email: address, user: user))), metadata(n))]),
                StreamAppend(.user(user), expected: .noStream, events: [PendingEvent(.user(.registered(registered)), metadata(n))]),
            ])
        }
        let (librarian, _) = try await t.signUp("lib@example.org", role: .librarian)
        #expect(try await desk.showMember.execute("old@example.org", by: librarian).account.cardNumber == nil)
        // A session opened before cards: the member is told how to get one.
        let old = UserID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", 0xA00))!)
        await #expect(throws: NoCardYet()) { try await desk.myCard.execute(by: .user(old, .member, SessionID(UUID()))) }
        let signedIn = try await t.library.accounts.logIn.execute(login: "old@example.org", password: "Member-Pass1")
        #expect(signedIn.account.cardNumber != nil)
        #expect(try await desk.issueCards.execute(by: librarian) == 1)
        #expect(try await desk.issueCards.execute(by: .cliOperator) == 0)
        #expect(try await desk.showMember.execute("older@example.org", by: librarian).account.cardNumber != nil)
        await #expect(throws: Forbidden(.librarianOnly)) {
            try await desk.issueCards.execute(by: try await t.signUp("ada@example.org").0)
        }
    }

    @Test func aWalkInNameHasItsOwnLimitWhateverTheCaseAndSpaces() async throws {
        let books = try await (1...4).asyncMap { try await t.book("Book \($0)") }
        let checkout = t.library.circulation.checkout
        let first = try await checkout.execute(books[0], borrowerName: "Mrs Hudson", by: .cliOperator)
        _ = try await checkout.execute(books[1], borrowerName: " mrs  HUDSON", by: .cliOperator)
        await #expect(throws: LoanRefused(.limitReached(name: "MrsHudson", max: 2, active: 2))) {
            try await checkout.execute(books[2], borrowerName: "MrsHudson", by: .cliOperator)
        }
        _ = try await checkout.execute(books[2], borrowerName: "Mr Hudson", by: .cliOperator)  // another borrower
        // One copy of a book at a time, however the name is typed (found by an outside walk).
        await #expect(throws: LoanRefused(.alreadyHasBook(name: "Mr Hudson", book: books[2]), titles: [books[2]: "Book 3"])) {
            try await checkout.execute(books[2], borrowerName: "mr hudson", by: .cliOperator)
        }
        let (librarian, _) = try await t.signUp("lib@example.org", role: .librarian)
        _ = try await t.library.circulation.giveBack.execute(first.id, by: librarian)
        _ = try await checkout.execute(books[3], borrowerName: "MRS HUDSON", by: .cliOperator)
        let listed = try await desk.loans.execute(walkIn: "mrs hudson", by: .cliOperator)
        #expect(listed.items.map(\.book).sorted { $0.description < $1.description } == [books[1], books[3]])
        #expect(Set(listed.items.map(\.borrowerName)) == [" mrs  HUDSON".trimmingCharacters(in: .whitespaces), "MRS HUDSON"])
        await #expect(throws: InvalidInput("member", .notAMemberReference("Mrs Hudson"))) {
            try await desk.loans.execute(member: "Mrs Hudson", by: .cliOperator)
        }
    }

    @Test func concurrentWalkInCheckoutsStopAtTheLimit() async throws {
        let books = try await (1...8).asyncMap { try await t.book("Book \($0)") }
        let checkout = t.library.circulation.checkout
        let lent = await withTaskGroup(of: Bool.self) { group in
            for book in books {
                group.addTask { (try? await checkout.execute(book, borrowerName: "Mrs Hudson", by: .cliOperator)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(lent == 2)
        #expect(try await desk.loans.execute(walkIn: "Mrs Hudson", by: .cliOperator).total == 2)
    }

    @Test func walkInLoansLentBeforeTheLimitCountAndComeBack() async throws {
        let books = try await (1...3).asyncMap { try await t.book("Book \($0)") }
        // Two walk-in loans as an older Shelfmark wrote them: the book's and the loan's events only.
        var old: [LoanID] = []
        for (n, book) in books[0..<2].enumerated() {
            let loan = LoanID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", 0xB00 + n))!)
            let version = Int64(try await t.database.eventStore.read(.book(book), after: 0).count)
            let opened = LoanOpened(
                loan: loan, book: book, bookTitle: "Book \(n + 1)", borrower: nil, borrowerName: "Mrs Hudson", lentAt: t.clock.now(),
                dueAt: t.clock.now().addingTimeInterval(14 * day))
            try await t.database.eventStore.append([
                StreamAppend(
                    .book(book), expected: .exactly(version),
                    events: [PendingEvent(.book(.copyLent(CopyMovement(book: book, loan: loan, onLoan: 1))), metadata(n))]),
                StreamAppend(.loan(loan), expected: .noStream, events: [PendingEvent(.loan(.opened(opened)), metadata(n))]),
            ])
            old.append(loan)
        }
        let checkout = t.library.circulation.checkout
        await #expect(throws: LoanRefused(.limitReached(name: "mrs hudson", max: 2, active: 2))) {
            try await checkout.execute(books[2], borrowerName: "mrs hudson", by: .cliOperator)
        }
        let (librarian, _) = try await t.signUp("lib@example.org", role: .librarian)
        _ = try await t.library.circulation.giveBack.execute(old[0], by: librarian)
        _ = try await checkout.execute(books[2], borrowerName: "mrs hudson", by: .cliOperator)
        await #expect(throws: LoanRefused.self) { try await checkout.execute(books[0], borrowerName: "Mrs Hudson", by: .cliOperator) }
        #expect(try await t.library.verifyLog.execute(by: .cliOperator).allSatisfy(\.passed))
    }
}

extension Sequence {
    /// The transform of each element, one after the other.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
