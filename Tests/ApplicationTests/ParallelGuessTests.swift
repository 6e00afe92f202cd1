import Countries
import Domain
import Foundation
import InMemory
import Security
import Synchronization
import Testing

@testable import Application

/// Guesses sent in parallel (found by an outside test: 20 logins at once had 6 to 20 passwords
/// checked before the throttle closed): a check under way counts as a failure, so no more than the
/// throttle's 5 secrets are checked for one address and client, however many requests arrive at once.
@Suite("Parallel guesses", .timeLimit(.minutes(1)))
struct ParallelGuessTests {
    /// A hasher whose checks wait at a gate the test opens, so every guess is in flight at once.
    final class HeldHasher: PasswordHasher, Sendable {
        let inner = BcryptPasswordHasher(cost: 4)
        let checked = Mutex(0)
        let gate = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func hash(_ password: String) async throws -> String { try await inner.hash(password) }

        func verify(_ password: String, against hash: String) async -> Bool {
            checked.withLock { $0 += 1 }
            await withCheckedContinuation { continuation in
                let passThrough = gate.withLock { gate in
                    if !gate.open { gate.waiting.append(continuation) }
                    return gate.open
                }
                if passThrough { continuation.resume() }
            }
            return await inner.verify(password, against: hash)
        }

        func open() {
            for continuation in gate.withLock({ gate in
                gate.open = true
                defer { gate.waiting = [] }
                return gate.waiting
            }) { continuation.resume() }
        }
    }

    /// A count the attempts' tasks add to.
    final class Count: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    struct NoCountry: IPGeolocator {
        func country(for ip: String) async -> String? { nil }
    }

    /// 20 attempts at once from one client, as the signed-up member: how many secrets were
    /// checked, and how many attempts were throttled.
    func burst(
        _ attempt: @escaping @Sendable (AccountUseCases, Principal) async throws -> Void
    ) async throws -> (checked: Int, throttled: Int) {
        let t = try TestLibrary()
        let hasher = HeldHasher()
        let accounts = AccountUseCases(
            AccountDependencies(
                runner: CommandRunner(store: t.database.eventStore, clock: t.clock, ids: SequentialIDs(), random: FixedRandom()),
                hasher: hasher, tokens: RandomSessionTokens(), resetCodes: RandomResetCodes(), accounts: t.database.accounts,
                countries: try BundledCountryDirectory(), geolocator: NoCountry(), loginFailures: t.database.loginFailures()))
        let ada = try await accounts.signUp.execute(
            SignupForm(email: "ada@example.org", password: "Analytical-1", country: "GB"), by: .anonymous)
        let principal = Principal.user(ada.account.id, ada.account.role, try #require(ada.session).id)
        let throttled = Count()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do { try await attempt(accounts, principal) } catch is LoginThrottled { throttled.add() } catch {}
                }
            }
            // Every attempt is either held at the gate or already refused before any check ends.
            while hasher.checked.withLock({ $0 }) + throttled.value < 20 { try await Task.sleep(for: .milliseconds(1)) }
            hasher.open()
            try await group.waitForAll()
        }
        return (hasher.checked.withLock { $0 }, throttled.value)
    }

    @Test func parallelLoginsCheckNoMoreThanFivePasswords() async throws {
        let (checked, throttled) = try await burst { accounts, _ in
            _ = try await accounts.logIn.execute(login: "ada@example.org", password: "Wrong-pass1", client: "198.51.100.7")
        }
        #expect(checked == 5)
        #expect(throttled == 15)
    }

    @Test func parallelPasswordChangesCheckNoMoreThanFiveCurrentPasswords() async throws {
        let (checked, throttled) = try await burst { accounts, member in
            try await accounts.passwords.change.execute(current: "Wrong-pass1", new: "Difference-2", client: "198.51.100.7", by: member)
        }
        #expect(checked == 5)
        #expect(throttled == 15)
    }

    /// Found by an outside test: a login whose password was checked just before a change of it
    /// still opened a session, though the change logs every other session out.
    @Test func aLoginCheckedBeforeAPasswordChangeOpensNoSession() async throws {
        let t = try TestLibrary()
        let hasher = HeldHasher()
        func accounts(_ hasher: any PasswordHasher) throws -> AccountUseCases {
            AccountUseCases(
                AccountDependencies(
                    runner: CommandRunner(store: t.database.eventStore, clock: t.clock, ids: SequentialIDs(), random: FixedRandom()),
                    hasher: hasher, tokens: RandomSessionTokens(), resetCodes: RandomResetCodes(), accounts: t.database.accounts,
                    countries: try BundledCountryDirectory(), geolocator: NoCountry(), loginFailures: t.database.loginFailures()))
        }
        let (held, plain) = (try accounts(hasher), try accounts(BcryptPasswordHasher(cost: 4)))
        let ada = try await plain.signUp.execute(
            SignupForm(email: "ada@example.org", password: "Analytical-1", country: "GB"), by: .anonymous)
        let principal = Principal.user(ada.account.id, ada.account.role, try #require(ada.session).id)
        let login = Task { try await held.logIn.execute(login: "ada@example.org", password: "Analytical-1") }
        while hasher.checked.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        try await plain.passwords.change.execute(current: "Analytical-1", new: "Difference-2", by: principal)
        hasher.open()
        await #expect(throws: InvalidCredentials.self) { _ = try await login.value }
    }

    @Test func aCheckUnderWayCountsAsAFailureUntilItEnds() throws {
        let checks = SecretChecks()
        let email = try EmailAddress(parsing: "ada@example.org")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let throttle = LoginThrottle()
        let failures = [now.addingTimeInterval(-60), now.addingTimeInterval(-30)]
        let running = try (0..<3).map { _ in try checks.begin(email, from: "a", failures: failures, throttle: throttle, now: now) }
        #expect(throws: LoginThrottled.self) { try checks.begin(email, from: "a", failures: failures, throttle: throttle, now: now) }
        // Another client, or another address, is not held back by these.
        _ = try checks.begin(email, from: "b", failures: [], throttle: throttle, now: now)
        _ = try checks.begin(try EmailAddress(parsing: "bob@example.org"), from: "a", failures: [], throttle: throttle, now: now)
        running[0].end()
        _ = try checks.begin(email, from: "a", failures: failures, throttle: throttle, now: now)
    }
}
