import Application
import Countries
import Domain
import Foundation
import GRDB
import InMemory
import SQLiteStore
import Security
import Testing

/// Changing and resetting passwords, on a real SQLite library with a manual clock.
@Suite("Password use cases")
struct PasswordUseCaseTests {
    let t: TestLibrary
    var accounts: AccountUseCases { t.library.accounts }
    var passwords: PasswordUseCases { t.library.accounts.passwords }
    init() throws { t = try TestLibrary() }

    /// Ada signed up (one session) and logged in once more: her two tokens.
    func ada(password: String = "Analytical-1") async throws -> (first: String, second: String) {
        let form = SignupForm(email: "ada@example.org", password: password, displayName: "Ada", country: "GB")
        let first = try #require(try await accounts.signUp.execute(form, by: .anonymous).session?.token)
        let second = try #require(try await accounts.logIn.execute(login: "ada@example.org", password: password).session?.token)
        return (first, second)
    }

    func signedIn(_ token: String) async throws -> Principal { try await accounts.authenticate.execute(token: token) }

    @Test func aChangeKeepsTheSessionAskingAndEndsTheOthers() async throws {
        let (first, second) = try await ada()
        let ended = try await passwords.change.execute(current: "Analytical-1", new: "Difference-2", by: try await signedIn(second))
        #expect(ended == 1)
        await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: first) }
        _ = try await signedIn(second)
        await #expect(throws: InvalidCredentials()) { try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1") }
        #expect(try await accounts.logIn.execute(login: "ada@example.org", password: "Difference-2").session != nil)
    }

    @Test func aChangeFollowsThePolicyAndNeedsTheRightCurrentPassword() async throws {
        let (first, _) = try await ada()
        let me = try await signedIn(first)
        await #expect(
            throws: InvalidInput([FieldError("newPassword", .tooShort(min: 8)), FieldError("newPassword", .needsUppercase)])
        ) { try await passwords.change.execute(current: "Analytical-1", new: "weak-1", by: me) }
        await #expect(throws: WrongPassword()) { try await passwords.change.execute(current: "Analytical-2", new: "Difference-2", by: me) }
        await #expect(throws: Unauthenticated()) {
            try await passwords.change.execute(current: "Analytical-1", new: "Difference-2", by: .cliOperator)
        }
        _ = try await signedIn(first)
    }

    @Test func wrongCurrentPasswordsCountAsFailedLoginsFromThatPlace() async throws {
        let (first, _) = try await ada()
        let me = try await signedIn(first)
        for _ in 1...3 {
            await #expect(throws: WrongPassword()) {
                try await passwords.change.execute(current: "Guess-1234", new: "Difference-2", client: "203.0.113.5", by: me)
            }
        }
        for _ in 1...2 {
            await #expect(throws: InvalidCredentials()) {
                try await accounts.logIn.execute(login: "ada@example.org", password: "Guess-1234", client: "203.0.113.5")
            }
        }
        await #expect(throws: LoginThrottled.self) {
            try await passwords.change.execute(current: "Analytical-1", new: "Difference-2", client: "203.0.113.5", by: me)
        }
        await #expect(throws: LoginThrottled.self) {
            try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1", client: "203.0.113.5")
        }
        try await passwords.change.execute(current: "Analytical-1", new: "Difference-2", client: "198.51.100.7", by: me)
    }

    @Test func resetCodesAreALibrariansToIssue() async throws {
        let (first, _) = try await ada()
        await #expect(throws: Forbidden.self) {
            try await passwords.issueResetCode.execute("ada@example.org", by: try await signedIn(first))
        }
        await #expect(throws: Unauthenticated()) { try await passwords.issueResetCode.execute("ada@example.org", by: .anonymous) }
        await #expect(throws: NotFound.self) { try await passwords.issueResetCode.execute("nobody@example.org", by: .cliOperator) }
        let issued = try await passwords.issueResetCode.execute("ADA@example.org", by: .cliOperator)
        #expect(issued.account.email.value == "ada@example.org")
        #expect(issued.code.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil)
        #expect(issued.expiresAt == t.clock.now().addingTimeInterval(24 * 3600))
        let byID = try await passwords.issueResetCode.execute(issued.account.id.description, by: .cliOperator)
        #expect(byID.code != issued.code)
    }

    @Test func aCodeSetsANewPasswordOnceAndEndsEverySession() async throws {
        let (first, second) = try await ada()
        let code = try await passwords.issueResetCode.execute("ada@example.org", by: .cliOperator).code
        try await passwords.reset.execute(
            email: "Ada@Example.org", code: code.lowercased().replacingOccurrences(of: "-", with: " "), newPassword: "Fresh-Start-3",
            by: .anonymous)
        for token in [first, second] { await #expect(throws: Unauthenticated()) { try await accounts.authenticate.execute(token: token) } }
        #expect(try await accounts.logIn.execute(login: "ada@example.org", password: "Fresh-Start-3").session != nil)
        await #expect(throws: ResetCodeRefused()) {
            try await passwords.reset.execute(email: "ada@example.org", code: code, newPassword: "Again-Fresh-4", by: .anonymous)
        }
    }

    @Test func wrongExpiredReplacedCodesAndUnknownAddressesGetOneAnswer() async throws {
        _ = try await ada()
        let old = try await passwords.issueResetCode.execute("ada@example.org", by: .cliOperator).code
        let code = try await passwords.issueResetCode.execute("ada@example.org", by: .cliOperator).code
        let reset = passwords.reset
        func refused(_ email: String, _ code: String) async {
            await #expect(throws: ResetCodeRefused()) {
                try await reset.execute(email: email, code: code, newPassword: "Fresh-Start-3", by: .anonymous)
            }
        }
        await refused("ada@example.org", old)
        await refused("ada@example.org", code == "0000-0000-0000" ? "0000-0000-0001" : "0000-0000-0000")
        await refused("nobody@example.org", code)
        t.clock.advance(by: 24 * 3600)
        await refused("ada@example.org", code)
        await #expect(
            throws: InvalidInput([FieldError("code", .notAResetCode), FieldError("newPassword", .needsUppercase)])
        ) { try await reset.execute(email: "ada@example.org", code: "ABC", newPassword: "fresh-start-3", by: .anonymous) }
    }

    @Test func wrongCodesAreThrottledPerAddressAndClient() async throws {
        _ = try await ada()
        let code = try await passwords.issueResetCode.execute("ada@example.org", by: .cliOperator).code
        let wrong = code.hasPrefix("0") ? "1111-1111-1111" : "0000-0000-0000"
        for _ in 1...5 {
            await #expect(throws: ResetCodeRefused()) {
                try await passwords.reset.execute(
                    email: "ada@example.org", code: wrong, newPassword: "Fresh-Start-3", client: "203.0.113.5", by: .anonymous)
            }
        }
        await #expect(throws: LoginThrottled.self) {
            try await passwords.reset.execute(
                email: "ada@example.org", code: code, newPassword: "Fresh-Start-3", client: "203.0.113.5", by: .anonymous)
        }
        try await passwords.reset.execute(
            email: "ada@example.org", code: code, newPassword: "Fresh-Start-3", client: "198.51.100.7", by: .anonymous)
    }

    @Test func ofSimultaneousUsesOfOneCodeExactlyOneSucceeds() async throws {
        // One member per round: the losers' refusals count as failed attempts on the address, and
        // however many of them a round records (that depends on the interleaving) must not throttle the next round.
        for round in 1...3 {
            let email = "racer\(round)@example.org"
            _ = try await accounts.signUp.execute(
                SignupForm(email: email, password: "Analytical-1", displayName: "Racer", country: "GB"), by: .anonymous)
            let code = try await passwords.issueResetCode.execute(email, by: .cliOperator).code
            let reset = passwords.reset
            let outcomes = await withTaskGroup(of: Result<Void, any Error>.self) { group in
                for n in 1...8 {
                    group.addTask {
                        do {
                            try await reset.execute(email: email, code: code, newPassword: "Racer-\(round)-\(n)!", by: .anonymous)
                            return .success(())
                        } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let wins = outcomes.filter { if case .success = $0 { true } else { false } }
            #expect(wins.count == 1, "round \(round): \(outcomes)")
            // A loser is refused the used code, or, once five refusals are on the address, throttled.
            #expect(
                outcomes.allSatisfy {
                    if case .failure(let error) = $0 { error is ResetCodeRefused || error is LoginThrottled } else { true }
                },
                "\(outcomes)")
        }
    }

    @Test func theLogNeverHoldsAPasswordOrACodeInClear() async throws {
        let (first, _) = try await ada(password: "First-Secret-11")
        try await passwords.change.execute(current: "First-Secret-11", new: "Second-Secret-22", by: try await signedIn(first))
        let code = try await passwords.issueResetCode.execute("ada@example.org", by: .cliOperator).code
        try await passwords.reset.execute(email: "ada@example.org", code: code, newPassword: "Third-Secret-33", by: .anonymous)
        let secrets = ["First-Secret-11", "Second-Secret-22", "Third-Secret-33", code, code.replacingOccurrences(of: "-", with: "")]

        let events = try await DatabaseQueue(path: t.folder.databasePath).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM events").map { row in row.columnNames.map { "\(row[$0] ?? "")" }.joined(separator: "|")
            }
        }
        let types = try await DatabaseQueue(path: t.folder.databasePath).read { db in
            try String.fetchAll(db, sql: "SELECT event_type FROM events")
        }
        #expect(Set(["user.password-changed.v1", "user.reset-code-issued.v1", "user.password-reset.v1"]).isSubset(of: Set(types)))
        for secret in secrets { #expect(!events.contains { $0.contains(secret) }, "\(secret) in the events table") }
        for file in try FileManager.default.contentsOfDirectory(at: t.folder.url, includingPropertiesForKeys: nil) {
            let bytes = try Data(contentsOf: file)
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(file.lastPathComponent)") }
        }
    }
}

/// A client's attempts: a reset and a change take tokens from the bucket logins and signups share.
@Suite("Password attempts per client")
struct PasswordAttemptTests {
    @Test func resetsShareTheClientsBucketWithLogins() async throws {
        let t = try TestLibrary()
        var settings = AccountSettings()
        settings.attempts = AttemptRate(burst: 2, perMinute: 1)
        let accounts = AccountUseCases(
            AccountDependencies(
                runner: CommandRunner(store: t.database.eventStore, clock: t.clock, ids: SequentialIDs(), random: FixedRandom()),
                hasher: BcryptPasswordHasher(cost: 4), tokens: RandomSessionTokens(), resetCodes: RandomResetCodes(),
                accounts: t.database.accounts, countries: try BundledCountryDirectory(), geolocator: NoGeolocation(),
                loginFailures: t.database.loginFailures(), settings: settings))
        await #expect(throws: InvalidCredentials()) {
            try await accounts.logIn.execute(login: "x@example.org", password: "Wrong-pass1", client: "203.0.113.9")
        }
        await #expect(throws: ResetCodeRefused()) {
            try await accounts.passwords.reset.execute(
                email: "x@example.org", code: "0000-0000-0000", newPassword: "Fresh-Start-3", client: "203.0.113.9", by: .anonymous)
        }
        await #expect(throws: TooManyAttempts.self) {
            try await accounts.passwords.reset.execute(
                email: "y@example.org", code: "0000-0000-0000", newPassword: "Fresh-Start-3", client: "203.0.113.9", by: .anonymous)
        }
    }

    struct NoGeolocation: IPGeolocator {
        func country(for ip: String) async -> String? { nil }
    }
}
