import Application
import Domain
import Foundation
import Testing

@testable import SQLiteStore

/// Closing accounts with erasure, on the real SQLite store: the rules, the races, and what is left
/// of the member afterwards (nothing readable: the read models, the log's payloads, the file and
/// its WAL, an export), while `audit verify` still passes.
@Suite("Closing accounts, with erasure")
struct ClosingUseCaseTests {
    let h: HoldLibrary
    init() throws { h = try HoldLibrary() }
    var accounts: AccountUseCases { h.t.library.accounts }

    func member(_ name: String, email: String? = nil) async throws -> (Principal, UserID) {
        let form = SignupForm(email: email ?? "\(name)@example.org", password: "Member-Pass1", displayName: name, country: "FR")
        let token = try #require(try await accounts.signUp.execute(form, by: .anonymous).session?.token)
        let principal = try await accounts.authenticate.execute(token: token)
        guard case .user(let id, _, _) = principal else { throw CancellationError() }
        return (principal, id)
    }

    func verified() async throws -> [AuditCheck] { try await h.t.library.verifyLog.execute(by: .cliOperator) }

    @Test func aMemberClosesTheirAccountAndEverySessionEnds() async throws {
        let (ada, id) = try await member("ada")
        let other = try #require(try await accounts.logIn.execute(login: "ada@example.org", password: "Member-Pass1").session)
        try await accounts.closeAccount.own(by: ada)
        await #expect(throws: Unauthenticated.self) { try await accounts.authenticate.execute(token: other.token) }
        await #expect(throws: InvalidCredentials.self) {
            try await accounts.logIn.execute(login: "ada@example.org", password: "Member-Pass1")
        }
        #expect(try await h.t.database.accounts.account(id) == nil)
        await #expect(throws: NotFound.self) { try await accounts.members.find("ada@example.org", by: .cliOperator) }
        await #expect(throws: NotFound.self) { try await accounts.closeAccount.member(id, by: .cliOperator) }
        #expect(try await verified().allSatisfy(\.passed))
        // The address is free: a new account takes it, with a new id, and logs in.
        let (_, again) = try await member("ada")
        #expect(again != id)
        #expect(try await accounts.logIn.execute(login: "ada@example.org", password: "Member-Pass1").account.id == again)
    }

    @Test func theAccountStaysOpenWhileBooksAreOutOrAwaited() async throws {
        let (dune, emma) = (try await h.book("Dune"), try await h.book("Emma"))
        let (ada, _) = try await member("ada")
        let (bob, bobID) = try await member("bob")
        let loan = try await h.circulation.borrow.execute([dune], by: ada)[0]
        _ = try await h.circulation.borrow.execute([emma], by: bob)
        let hold = try await h.holds.place.execute(emma, by: ada)
        let refused = await #expect(throws: ClosingRefused.self) { try await accounts.closeAccount.own(by: ada) }
        #expect(refused?.english.contains("books are on loan to them: return “Dune” (due ") == true, "\(refused!)")
        _ = try await h.circulation.giveBack.execute(loan.id, by: ada)
        let waiting = await #expect(throws: ClosingRefused.self) { try await accounts.closeAccount.own(by: ada) }
        #expect(waiting?.english.contains("while they wait for “Emma”: cancel the hold first") == true, "\(waiting!)")
        _ = try await h.holds.cancel.execute(hold.id, by: ada)
        try await accounts.closeAccount.own(by: ada)
        // A member may not close another's account; a librarian may.
        await #expect(throws: Forbidden.self) { try await accounts.closeAccount.member(bobID, by: bob) }
        await #expect(throws: Unauthenticated.self) { try await accounts.closeAccount.own(by: .anonymous) }
    }

    @Test func theLastLibrarianCannotCloseTheirAccount() async throws {
        let librarian = try await h.librarian()
        let refused = await #expect(throws: ClosingRefused.self) { try await accounts.closeAccount.own(by: librarian) }
        #expect(refused?.rejection == .lastLibrarian)
        let (_, ada) = try await member("ada")
        _ = try await accounts.changeRole.execute(ada, to: .librarian, by: .cliOperator)
        try await accounts.closeAccount.own(by: librarian)
        let stays = await #expect(throws: ClosingRefused.self) { try await accounts.closeAccount.member(ada, by: .cliOperator) }
        #expect(stays?.rejection == .lastLibrarian)
    }

    /// The closing expects the member's patron stream unchanged: a borrow racing it either lands
    /// first (and the closing is refused, naming the book) or finds the account closed.
    @Test func aClosingRacingABorrowNeverLeavesALoanToAClosedAccount() async throws {
        for round in 1...8 {
            let book = try await h.book("Round \(round)")
            let (ada, id) = try await member("ada\(round)")
            async let closed: Bool = (try? await accounts.closeAccount.own(by: ada)) != nil
            async let borrowed: Bool = (try? await h.circulation.borrow.execute([book], by: ada)) != nil
            let (didClose, didBorrow) = await (closed, borrowed)
            #expect(didClose != didBorrow, "round \(round): closed \(didClose), borrowed \(didBorrow)")
            let active = try await h.t.database.loans.loans(LoanFilter(member: id))
            #expect(didClose ? active.isEmpty : active.count == 1)
        }
        #expect(try await verified().allSatisfy(\.passed))
    }

    /// A command decided for a member whose account closes meanwhile (the store refuses the closed
    /// member's data) is told the member is no longer signed in, never the store's own error (found
    /// by an outside test: a borrow sent with the closing answered 500).
    @Test func aBorrowForAnAccountClosedMeanwhileIsToldItIsNoLongerSignedIn() async throws {
        let book = try await h.book("Dune")
        let (ada, _) = try await member("ada")
        try await accounts.closeAccount.own(by: ada)
        await #expect(throws: Unauthenticated.self) { try await h.circulation.borrow.execute([book], by: ada) }
        #expect(try await h.t.database.loans.loans(LoanFilter(book: book)).isEmpty)
    }

    /// Time travel reads the log as it is now: before the closing the past shows the member's name,
    /// after it the same past moment shows none.
    @Test func timeTravelBeforeAndAfterTheErasure() async throws {
        let dune = try await h.book("Dune")
        let (ada, id) = try await member("Ada Lovelace", email: "ada@example.org")
        let loan = try await h.circulation.borrow.execute([dune], by: ada)[0]
        let lent = h.t.clock.now()
        h.t.clock.advance(by: 3600)
        _ = try await h.circulation.giveBack.execute(loan.id, by: ada)
        h.t.clock.advance(by: 3600)
        let travel = h.t.library.timeTravel
        let before = try await travel.execute(at: lent, view: .loans, by: .cliOperator).loans
        #expect(before.map(\.borrowerName) == ["Ada Lovelace"] && before.map(\.borrower) == [id])
        let books = try await travel.execute(at: lent, view: .books, by: .cliOperator).books
        #expect(books.first?.lastCheckout?.name == "Ada Lovelace")

        try await accounts.closeAccount.own(by: ada)
        let after = try await travel.execute(at: lent, view: .loans, by: .cliOperator).loans
        #expect(after.map(\.borrowerName) == [""] && after.map(\.borrower) == [id])
        let booksAfter = try await travel.execute(at: lent, view: .books, by: .cliOperator).books
        #expect(booksAfter.map(\.details.title) == ["Dune"] && booksAfter.first?.lastCheckout?.name == "")
        let now = try await h.t.database.loans.loans(LoanFilter(member: id, includeReturned: true))
        #expect(now.map(\.borrowerName) == [""])
        #expect(try await h.t.library.catalogue.showBook.execute(dune, by: .cliOperator).lastCheckout?.name == "")
    }

    /// The scan test: after the closing, neither the database file, nor its WAL, nor an export
    /// holds the member's email, name or password hash, as bytes; and `audit verify` passes.
    @Test func afterErasureNoByteOfTheMemberIsLeft() async throws {
        let email = "zenobia.quartermaine@example.org"
        let name = "Zenobia Quartermaine"
        let dune = try await h.book("Dune")
        let (zenobia, id) = try await member(name, email: email)
        await #expect(throws: InvalidCredentials.self) { try await accounts.logIn.execute(login: email, password: "Wrong-Pass1") }
        _ = try await accounts.logIn.execute(login: email, password: "Member-Pass1")
        let loan = try await h.circulation.borrow.execute([dune], by: zenobia)[0]
        _ = try await h.circulation.giveBack.execute(loan.id, by: zenobia)
        let (bob, _) = try await member("bob")
        _ = try await h.circulation.borrow.execute([dune], by: bob)
        let hold = try await h.holds.place.execute(dune, by: zenobia)
        _ = try await h.holds.cancel.execute(hold.id, by: zenobia)
        guard case .user(.registered(let registered)) = try await h.t.database.eventStore.read(.user(id)).first?.event,
            let hash = registered.passwordHash.known
        else { throw CancellationError() }
        let secrets = [email, name, hash, "Zenobia", "zenobia"]
        let path = h.t.folder.databasePath
        // Before the closing, the data is in the read models (the scan would find it).
        #expect(try contents(of: path).contains(Data(name.utf8)) || contents(of: path + "-wal").contains(Data(name.utf8)))

        try await accounts.closeAccount.member(id, by: .cliOperator)
        #expect(try await verified().allSatisfy(\.passed))
        var export = Data()
        _ = try await h.t.library.exportLog.execute(by: .cliOperator) { export.append(Data(($0 + "\n").utf8)) }
        for file in [path, path + "-wal"] {
            let bytes = try contents(of: file)
            for secret in secrets { #expect(!bytes.contains(Data(secret.utf8)), "\(secret) in \(file)") }
        }
        for secret in secrets { #expect(!export.contains(Data(secret.utf8)), "\(secret) in the export") }
        #expect(try contents(of: path + "-wal").count == 0)
    }

    func contents(of file: String) throws -> Data {
        FileManager.default.fileExists(atPath: file) ? try Data(contentsOf: URL(fileURLWithPath: file)) : Data()
    }
}

extension Data {
    /// Whether `bytes` occur anywhere in these bytes.
    func contains(_ bytes: Data) -> Bool { range(of: bytes) != nil }
}
