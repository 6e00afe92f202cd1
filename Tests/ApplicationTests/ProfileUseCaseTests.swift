import Application
import Domain
import Foundation
import Testing
import Wording

/// Profiles, address changes and the last librarian, on the real SQLite store.
@Suite("Profiles and roles on SQLite")
struct ProfileUseCaseTests {
    let t: TestLibrary
    var accounts: AccountUseCases { t.library.accounts }
    init() throws { t = try TestLibrary() }

    /// Signs up `email` (as the operator for a librarian) and returns the principal of its session.
    func member(_ email: String, _ role: Role = .member) async throws -> Principal {
        let form = SignupForm(email: email, password: "Analytical-1", displayName: "Ada", country: "GB")
        let signedIn = try await accounts.signUp.execute(form, role: role, by: role == .librarian ? .cliOperator : .anonymous)
        return try await accounts.authenticate.execute(token: try #require(signedIn.session?.token))
    }

    func id(_ principal: Principal) throws -> UserID {
        guard case .user(let id, _, _) = principal else { throw CancellationError() }
        return id
    }

    @Test func anyFieldChangesAloneAndTheReadModelFollows() async throws {
        let ada = try await member("ada@example.org")
        let renamed = try await accounts.editProfile.execute(ProfileForm(displayName: " Ada Lovelace "), by: ada)
        #expect(renamed.displayName == "Ada Lovelace" && renamed.country == "GB" && renamed.email.value == "ada@example.org")
        let moved = try await accounts.editProfile.execute(ProfileForm(country: "fr"), by: ada)
        #expect(moved.displayName == "Ada Lovelace" && moved.country == "FR")
        #expect(try await accounts.listUsers.execute(by: .cliOperator).items.first == moved)
        // Nothing changed, nothing recorded.
        let before = try await t.database.eventStore.read(.user(try id(ada))).count
        _ = try await accounts.editProfile.execute(ProfileForm(displayName: "Ada Lovelace", country: "FR"), by: ada)
        #expect(try await t.database.eventStore.read(.user(try id(ada))).count == before)
    }

    @Test func loansHoldsAndLastCheckoutsNameAMemberAsTheyAreCalledNow() async throws {
        // Given Ada with a loan of Dune and a hold on Emma (out to Bob), and Bob with a loan of his own
        let book = { (title: String) in
            try await self.t.library.catalogue.addBook.execute(BookDraft(title: title, authors: ["A"]), copies: 1, by: .cliOperator).id
        }
        let (dune, emma) = (try await book("Dune"), try await book("Emma"))
        let (ada, bob) = (try await member("ada@example.org"), try await member("bob@example.org"))
        let circulation = t.library.circulation
        _ = try await circulation.borrow.execute([dune], by: ada)
        _ = try await circulation.borrow.execute([emma], by: bob)
        _ = try await circulation.holds.place.execute(emma, by: ada)
        // When Ada changes her name
        _ = try await accounts.editProfile.execute(ProfileForm(displayName: "Ada Lovelace"), by: ada)
        // Then her loan, her hold and Dune's last checkout name her as she is called now; Bob's loan keeps
        // his name (which the helper also made "Ada")
        func names() async throws -> [String] {
            let loans = try await t.database.loans.loans(LoanFilter()).map { "\($0.bookTitle): \($0.borrowerName)" }
            let holds = try await circulation.holds.list.queue(of: emma, by: .cliOperator).items.map(\.memberName)
            let last = try await t.library.catalogue.showBook.execute(dune, by: .cliOperator).lastCheckout?.name
            return loans.sorted() + holds + [last ?? "-"]
        }
        let expected = ["Dune: Ada Lovelace", "Emma: Ada", "Ada Lovelace", "Ada Lovelace"]
        #expect(try await names() == expected)
        // And a rebuild of the read models from the log says the same
        _ = try await t.database.rebuild { _, _ in }
        #expect(try await names() == expected)
    }

    @Test func fieldsAreCheckedAsAtSignupAndNothingChangesOnAnError() async throws {
        let ada = try await member("ada@example.org")
        let form = ProfileForm(displayName: "", country: "ZZ", email: "nope")
        await #expect(
            throws: InvalidInput([
                FieldError("email", .notAnEmailAddress), FieldError("displayName", .required), FieldError("country", .unknownCountry("ZZ")),
            ])
        ) { try await accounts.editProfile.execute(form, by: ada) }
        await #expect(throws: InvalidInput([FieldError("email", .notAnEmailAddress)])) {
            try await accounts.editProfile.execute(ProfileForm(displayName: "Changed", email: "nope"), by: ada)
        }
        #expect(try await accounts.showMe.execute(by: ada).displayName == "Ada")
        await #expect(throws: Unauthenticated.self) { try await accounts.editProfile.execute(ProfileForm(), by: .anonymous) }
        await #expect(throws: Unauthenticated.self) { try await accounts.editProfile.execute(ProfileForm(), by: .cliOperator) }
    }

    @Test func aNewAddressIsClaimedAndTheOldOneFreedInOneAppend() async throws {
        let ada = try await member("ada@example.org")
        _ = try await member("bob@example.org")
        await #expect(throws: EmailTaken()) { try await accounts.editProfile.execute(ProfileForm(email: "BOB@example.org"), by: ada) }
        let head = try await t.database.eventStore.readAll(after: 0, limit: 1000).count
        let changed = try await accounts.editProfile.execute(ProfileForm(email: "Ada@Lovelace.org"), by: ada)
        #expect(changed.email.value == "ada@lovelace.org")
        let appended = try await t.database.eventStore.readAll(after: Int64(head), limit: 1000)
        #expect(Set(appended.map(\.metadata.correlationID)).count == 1, "one append")
        #expect(appended.count == 3)
        // Logins follow the address; the old one is free for anyone.
        await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1") }
        #expect(try await accounts.logIn.execute(login: "ada@lovelace.org", password: "Analytical-1").account.id == (try id(ada)))
        #expect(try await accounts.members.find("ada@lovelace.org", by: .cliOperator) == (try id(ada)))
        await #expect(throws: NotFound(.user, "ada@example.org")) { try await accounts.members.find("ada@example.org", by: .cliOperator) }
        _ = try await member("ada@example.org")
    }

    @Test func twoMembersTakingOneAddressAtOnceHaveOneWinner() async throws {
        let (ada, bob) = (try await member("ada@example.org"), try await member("bob@example.org"))
        let edit = accounts.editProfile
        let won = try await withThrowingTaskGroup(of: Bool.self) { group in
            for principal in [ada, bob] {
                group.addTask { (try? await edit.execute(ProfileForm(email: "shared@example.org"), by: principal)) != nil }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(won == 1)
    }

    @Test func theLoginThrottleFollowsTheAccountToItsNewAddress() async throws {
        let ada = try await member("ada@example.org")
        for _ in 1...4 {
            await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "ada@example.org", password: "Wrong-1!") }
        }
        _ = try await accounts.editProfile.execute(ProfileForm(email: "ada@lovelace.org"), by: ada)
        await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "ada@lovelace.org", password: "Wrong-1!") }
        await #expect(throws: LoginThrottled.self) { try await accounts.logIn.execute(login: "ada@lovelace.org", password: "Analytical-1") }
        // Whoever takes the old address starts with no failures.
        _ = try await member("ada@example.org")
        #expect(try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1").session != nil)
    }

    @Test func theLastLibrarianCanNeitherDemoteThemselvesNorBeDemoted() async throws {
        let lib = try await member("lib@example.org", .librarian)
        await #expect(throws: AccountRefused.self) { try await accounts.changeRole.execute(try id(lib), to: .member, by: lib) }
        await #expect(throws: AccountRefused.self) { try await accounts.changeRole.execute(try id(lib), to: .member, by: .cliOperator) }
        do {
            _ = try await accounts.changeRole.execute(try id(lib), to: .member, by: .cliOperator)
        } catch let error as AccountRefused {
            #expect(error.rejection == .lastLibrarian && error.name == MemberName(displayName: "Ada", email: "lib@example.org"))
            #expect(Wording.english.text(error.message).contains("Ada (lib@example.org) is the library's last librarian"))
        }
        let ada = try await member("ada@example.org")
        _ = try await accounts.changeRole.execute(try id(ada), to: .librarian, by: lib)
        #expect(try await accounts.changeRole.execute(try id(lib), to: .member, by: lib).role == .member)
        await #expect(throws: AccountRefused.self) { try await accounts.changeRole.execute(try id(ada), to: .member, by: .cliOperator) }
    }

    @Test(arguments: [false, true])
    func twoLibrariansDemotingAtOnceLeaveOneLibrarian(themselves: Bool) async throws {
        for round in 1...8 {
            let a = try await member("a\(round)@example.org", .librarian)
            let b = try await member("b\(round)@example.org", .librarian)
            let others = try await t.library.accounts.listUsers.execute(page: try PageRequest(limit: 100), by: .cliOperator).items
            let racing = [try id(a), try id(b)]
            for other in others where other.role == .librarian && !racing.contains(other.id) {
                _ = try await accounts.changeRole.execute(other.id, to: .member, by: .cliOperator)
            }
            let changeRole = accounts.changeRole
            let targets = themselves ? [(a, a), (b, b)] : [(a, b), (b, a)]
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (by, target) in targets {
                    let user = try id(target)
                    group.addTask {
                        do {
                            _ = try await changeRole.execute(user, to: .member, by: by)
                            return true
                        } catch let refusal as AccountRefused where refusal.rejection == .lastLibrarian {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1, "round \(round): \(results)")
            let librarians = try await t.library.accounts.listUsers.execute(page: try PageRequest(limit: 100), by: .cliOperator).items
                .filter { $0.role == .librarian }
            #expect(librarians.count == 1, "round \(round)")
        }
    }
}
