import Application
import Domain
import Foundation
import Testing
import Wording

/// Usernames on the real SQLite store: chosen at signup or later, claimed so that one account at a
/// time has each, a login by username everywhere an email address is accepted, freed on closing.
@Suite("Usernames on SQLite")
struct UsernameUseCaseTests {
    let t: TestLibrary
    var accounts: AccountUseCases { t.library.accounts }
    init() throws { t = try TestLibrary() }

    func signUp(_ email: String, username: String? = nil) async throws -> Principal {
        let form = SignupForm(email: email, password: "Analytical-1", displayName: "Ada", country: "GB", username: username)
        let signedIn = try await accounts.signUp.execute(form, by: .anonymous)
        return try await accounts.authenticate.execute(token: try #require(signedIn.session?.token))
    }

    @Test func aMemberLogsInWithTheirUsernameInAnyCase() async throws {
        _ = try await signUp("ada@example.org", username: "Ada.L")
        let signedIn = try await accounts.logIn.execute(login: " ADA.l ", password: "Analytical-1")
        #expect(signedIn.account.email.value == "ada@example.org" && signedIn.account.username?.value == "ada.l")
        await #expect(throws: InvalidCredentials.self) { try await accounts.logIn.execute(login: "ada.l", password: "Wrong-pass1") }
        await #expect(throws: InvalidCredentials.self) { try await accounts.logIn.execute(login: "nobody", password: "Analytical-1") }
        await #expect(throws: InvalidCredentials.self) { try await accounts.logIn.execute(login: "x", password: "Analytical-1") }
    }

    @Test func twoAccountsCannotShareAUsername() async throws {
        _ = try await signUp("ada@example.org", username: "ada")
        await #expect(throws: UsernameTaken.self) { _ = try await signUp("bob@example.org", username: "ADA") }
        // Nothing of Bob's signup was recorded: his address is still free.
        let bob = try await signUp("bob@example.org")
        await #expect(throws: UsernameTaken.self) {
            _ = try await accounts.editProfile.execute(ProfileForm(displayName: "Bob", username: "ada"), by: bob)
        }
        #expect(try await accounts.showMe.execute(by: bob).displayName == "Ada")
        #expect(try await accounts.usernames.availability("Ada", client: nil) == .taken)
        #expect(try await accounts.usernames.availability("bob", client: nil) == .free)
        #expect(try await accounts.usernames.availability("b@b", client: nil) == .invalid(FieldError("username", .notAUsername)))
    }

    @Test func aChangedOrDroppedUsernameIsFreeForOthersAndNoLongerLogsIn() async throws {
        let ada = try await signUp("ada@example.org", username: "ada")
        let renamed = try await accounts.editProfile.execute(ProfileForm(username: "lovelace"), by: ada)
        #expect(renamed.username?.value == "lovelace")
        await #expect(throws: InvalidCredentials.self) { try await accounts.logIn.execute(login: "ada", password: "Analytical-1") }
        _ = try await accounts.logIn.execute(login: "lovelace", password: "Analytical-1")
        let bob = try await signUp("bob@example.org", username: "ada")
        #expect(try await accounts.showMe.execute(by: bob).username?.value == "ada")
        let dropped = try await accounts.editProfile.execute(ProfileForm(username: ""), by: ada)
        #expect(dropped.username == nil)
        #expect(try await accounts.usernames.availability("lovelace", client: nil) == .free)
    }

    @Test func askingWhetherAUsernameIsFreeCountsAgainstTheAddresssAttempts() async throws {
        // Given one address asking about one name after another (the clock stands still)
        var asked = 0
        while asked < 1_000, (try? await accounts.usernames.availability("name\(asked)", client: "192.0.2.7")) != nil { asked += 1 }
        // Then it is stopped as a signup or a login from it would be, and no other address is
        #expect(asked > 0 && asked < 1_000, "stopped after \(asked) questions")
        await #expect(throws: TooManyAttempts.self) { _ = try await accounts.usernames.availability("ada", client: "192.0.2.7") }
        await #expect(throws: TooManyAttempts.self) {
            _ = try await accounts.logIn.execute(login: "ada", password: "Analytical-1", client: "192.0.2.7")
        }
        #expect(try await accounts.usernames.availability("ada", client: "192.0.2.8") == .free)
        #expect(try await accounts.usernames.availability("ada", client: nil) == .free)
    }

    @Test func aClosedAccountsUsernameIsFreed() async throws {
        let ada = try await signUp("ada@example.org", username: "ada")
        try await accounts.closeAccount.own(by: ada)
        #expect(try await accounts.usernames.availability("ada", client: nil) == .free)
        _ = try await signUp("ann@example.org", username: "ada")
    }

    @Test func theDeskFindsAMemberByUsername() async throws {
        let ada = try await signUp("ada@example.org", username: "ada.l")
        guard case .user(let id, _, _) = ada else { throw CancellationError() }
        #expect(try await accounts.members.find("ADA.L", by: .cliOperator) == id)
        await #expect(throws: NotFound(.user, "bob")) { try await accounts.members.find("bob", by: .cliOperator) }
        await #expect(throws: Forbidden.self) { try await accounts.members.find("ada.l", by: ada) }
    }

    /// Failures by username and by address count together: two spellings of one account are one throttle.
    @Test func theUsernameAndTheAddressShareOneLoginThrottle() async throws {
        _ = try await signUp("ada@example.org", username: "ada")
        for login in ["ada", "ada@example.org", "ADA", "Ada@Example.org", "ada"] {
            await #expect(throws: InvalidCredentials.self) {
                try await accounts.logIn.execute(login: login, password: "Wrong-pass1", client: "192.0.2.1")
            }
        }
        await #expect(throws: LoginThrottled.self) {
            try await accounts.logIn.execute(login: "ada", password: "Analytical-1", client: "192.0.2.1")
        }
        await #expect(throws: LoginThrottled.self) {
            try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1", client: "192.0.2.1")
        }
    }
}
