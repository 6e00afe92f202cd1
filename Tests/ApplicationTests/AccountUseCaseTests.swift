import Application
import Countries
import Domain
import Foundation
import InMemory
import Security
import Testing

@Suite("Account use cases")
struct AccountUseCaseTests {
    let t: TestLibrary
    var accounts: AccountUseCases { t.library.accounts }
    init() throws { t = try TestLibrary() }

    func form(_ email: String = "ada@example.org", password: String = "Analytical-1", country: String = "GB") -> SignupForm {
        SignupForm(email: email, password: password, displayName: "Ada", country: country)
    }

    @Test func signingUpLogsInAndTheTokenAuthenticates() async throws {
        let signedIn = try await accounts.signUp.execute(form(), by: .anonymous)
        #expect(signedIn.account.email.value == "ada@example.org" && signedIn.account.role == .member)
        let session = try #require(signedIn.session)
        #expect(session.token.count >= 43)
        #expect(session.expiresAt == t.clock.now().addingTimeInterval(30 * 24 * 3600))
        let principal = try await accounts.authenticate.execute(token: session.token)
        #expect(principal == .user(signedIn.account.id, .member, session.id))
        #expect(try await accounts.showMe.execute(by: principal) == signedIn.account)
    }

    @Test func everyInvalidFieldIsReported() async throws {
        await #expect(
            throws: InvalidInput([
                FieldError("email", .notAnEmailAddress),
                FieldError("password", .tooShort(min: 8)),
                FieldError("password", .needsUppercase),
                FieldError("password", .needsSpecialCharacter),
            ])
        ) {
            try await accounts.signUp.execute(form("nope", password: "weak"), by: .anonymous)
        }
        await #expect(throws: InvalidInput([FieldError("country", .unknownCountry("ZZ"))])) {
            try await accounts.signUp.execute(form(country: "zz"), by: .anonymous)
        }
    }

    @Test func anAddressHasOneAccountWhateverItsCase() async throws {
        _ = try await accounts.signUp.execute(form(), by: .anonymous)
        await #expect(throws: EmailTaken()) { try await accounts.signUp.execute(form(" ADA@Example.org "), by: .anonymous) }
    }

    @Test func concurrentSignupsOfOneAddressHaveExactlyOneWinner() async throws {
        let accounts = self.accounts
        let form = self.form()
        let wins = await withTaskGroup(of: Bool.self) { group in
            for _ in 1...12 { group.addTask { (try? await accounts.signUp.execute(form, by: .anonymous)) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        #expect(try await accounts.listUsers.execute(by: .cliOperator).total == 1)
    }

    @Test func loginChecksThePasswordWithoutSayingWhichPartIsWrong() async throws {
        _ = try await accounts.signUp.execute(form(), by: .anonymous)
        #expect(try await accounts.logIn.execute(login: "Ada@example.org", password: "Analytical-1").session != nil)
        await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "ada@example.org", password: "Wrong-pass1") }
        await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "bob@example.org", password: "Analytical-1") }
        await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "not an email", password: "x") }
    }

    @Test(arguments: ["ada@example.org", "nobody@example.org"])
    func fiveFailuresCloseLoginsForTheRestOfTheWindow(email: String) async throws {
        _ = try await accounts.signUp.execute(form(), by: .anonymous)
        for _ in 1...5 {
            await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: email, password: "Wrong-pass1") }
            t.clock.advance(by: 60)
        }
        let until = t.clock.now().addingTimeInterval(15 * 60 - 5 * 60)
        await #expect(throws: LoginThrottled(until: until)) { try await accounts.logIn.execute(login: email, password: "Analytical-1") }
        t.clock.advance(by: 10 * 60)
        if email == "ada@example.org" {
            #expect(try await accounts.logIn.execute(login: email, password: "Analytical-1").session != nil)
        } else {
            await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: email, password: "Analytical-1") }
        }
    }

    @Test func sessionsExpire() async throws {
        let token = try #require(try await accounts.signUp.execute(form(), by: .anonymous).session?.token)
        t.clock.advance(by: 30 * 24 * 3600 - 1)
        _ = try await accounts.authenticate.execute(token: token)
        t.clock.advance(by: 1)
        await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: token) }
        await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: "smk_forged") }
    }

    @Test func logoutRevokesAtOnceAndEverywhereRevokesAll() async throws {
        let first = try #require(try await accounts.signUp.execute(form(), by: .anonymous).session?.token)
        let second = try #require(try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1").session?.token)
        let third = try #require(try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1").session?.token)
        try await accounts.logOut.execute(by: try await accounts.authenticate.execute(token: first))
        await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: first) }
        _ = try await accounts.authenticate.execute(token: second)
        try await accounts.logOut.execute(everywhere: true, by: try await accounts.authenticate.execute(token: second))
        await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: second) }
        await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: third) }
        await #expect(throws: Unauthenticated()) { try await accounts.logOut.execute(by: .anonymous) }
    }

    @Test func rolesAreChangedByLibrariansAndTheOperatorOnly() async throws {
        let ada = try await accounts.signUp.execute(form(), by: .anonymous)
        let bob = try await accounts.signUp.execute(form("bob@example.org"), by: .anonymous)
        let bobAsMember = try await accounts.authenticate.execute(token: try #require(bob.session?.token))
        await #expect(throws: Forbidden.self) { try await accounts.changeRole.execute(ada.account.id, to: .librarian, by: bobAsMember) }
        await #expect(throws: Forbidden.self) { try await accounts.listUsers.execute(by: bobAsMember) }
        await #expect(throws: Unauthenticated()) {
            try await accounts.signUp.execute(form("eve@example.org"), role: .librarian, by: .anonymous)
        }
        #expect(
            try await accounts.changeRole.execute(
                try await accounts.members.find("BOB@example.org", by: .cliOperator), to: .librarian, by: .cliOperator
            ).role == .librarian)
        // The new role applies to the existing session at once.
        let bobAsLibrarian = try await accounts.authenticate.execute(token: try #require(bob.session?.token))
        #expect(try await accounts.changeRole.execute(ada.account.id, to: .librarian, by: bobAsLibrarian).role == .librarian)
        await #expect(throws: NotFound.self) { try await accounts.members.find("nobody@example.org", by: .cliOperator) }
        let bobID = try await accounts.members.find("bob@example.org", by: .cliOperator)
        #expect(try await accounts.members.find(bobID.description, by: .cliOperator) == bobID)
        await #expect(throws: Unauthenticated.self) { try await accounts.members.find("bob@example.org", by: .anonymous) }
    }

    @Test func theDatabaseNeverHoldsThePasswordOrTheTokenInClear() async throws {
        let password = "Very-Secret-Pass-42"
        let token = try #require(try await accounts.signUp.execute(form(password: password), by: .anonymous).session?.token)
        _ = try await accounts.logIn.execute(login: "ada@example.org", password: password)
        let files = try FileManager.default.contentsOfDirectory(at: t.folder.url, includingPropertiesForKeys: nil)
        #expect(files.count >= 2)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file.lastPathComponent)")
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(file.lastPathComponent)")
        }
        // Not even the hash: it is sealed with the member's key (only its box is in the log).
        #expect(try Data(contentsOf: files.first { $0.lastPathComponent.hasSuffix("-wal") }!).range(of: Data("$2b$04$".utf8)) == nil)
        #expect(try Data(contentsOf: files.first { $0.lastPathComponent.hasSuffix("-wal") }!).range(of: Data("$sealed".utf8)) != nil)
    }
}

@Suite("Default country of a signup form")
struct DefaultCountryTests {
    struct FixedGeolocator: IPGeolocator {
        let answers: [String: String]
        func country(for ip: String) async -> String? { answers[ip] }
    }

    func countries(_ geolocator: some IPGeolocator) throws -> CountryUseCases {
        let runner = CommandRunner(store: InMemoryEventStore(), clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom())
        let deps = AccountDependencies(
            runner: runner, hasher: BcryptPasswordHasher(cost: 4), tokens: RandomSessionTokens(), resetCodes: RandomResetCodes(),
            accounts: UnusedAccounts(), countries: try BundledCountryDirectory(), geolocator: geolocator,
            loginFailures: InMemoryLoginFailures())
        return AccountUseCases(deps).countries
    }

    struct UnusedAccounts: Accounts {
        func account(_ id: UserID) async throws -> AccountSummary? { nil }
        func list(_ page: PageRequest) async throws -> Page<AccountSummary> { Page(items: [], total: 0, of: page) }
        func session(digest: String) async throws -> SessionRecord? { nil }
        func librarians() async throws -> [UserID] { [] }
    }

    @Test func theAddressWinsThenTheLanguageRegion() async throws {
        let use = try countries(FixedGeolocator(answers: ["81.2.69.160": "GB", "10.0.0.1": "XX"]))
        #expect(try await use.defaultCountry(clientIP: "81.2.69.160", acceptLanguage: "fr-CA").map(\.code) == "GB")
        #expect(try await use.defaultCountry(clientIP: "10.0.0.1", acceptLanguage: "fr-CA,fr;q=0.8").map(\.code) == "CA")
        #expect(try await use.defaultCountry(clientIP: nil, acceptLanguage: "en, de-DE;q=0.5").map(\.code) == "DE")
        #expect(try await use.defaultCountry(clientIP: nil, acceptLanguage: "en, fr") == nil)
        #expect(try await use.defaultCountry(clientIP: nil, acceptLanguage: nil) == nil)
    }

    @Test func theBundledListHasEveryCountryWithFrenchNames() async throws {
        let directory = try BundledCountryDirectory()
        let all = try await directory.all()
        #expect(all.count == 249)
        #expect(try await directory.country("de") == Country(code: "DE", name: "Germany", frenchName: "Allemagne"))
        #expect(all.allSatisfy { $0.code.count == 2 && $0.code == $0.code.uppercased() })
    }
}
