import Application
import Countries
import Domain
import Foundation
import InMemory
import SQLiteStore
import Security
import Synchronization
import Testing

/// Login abuse (issue 12): a throttled attempt costs no bcrypt, guessing addresses grows no log,
/// and one client's attempts are limited whatever addresses it tries.
@Suite("Login abuse")
struct LoginAbuseTests {
    /// Counts how many times bcrypt runs.
    final class CountingHasher: PasswordHasher, Sendable {
        let inner = BcryptPasswordHasher(cost: 4)
        let runs = Mutex(0)
        func hash(_ password: String) async throws -> String {
            runs.withLock { $0 += 1 }
            return try await inner.hash(password)
        }
        func verify(_ password: String, against hash: String) async -> Bool {
            runs.withLock { $0 += 1 }
            return await inner.verify(password, against: hash)
        }
    }

    struct NoCountry: IPGeolocator {
        func country(for ip: String) async -> String? { nil }
    }

    let t: TestLibrary
    let hasher = CountingHasher()
    let accounts: AccountUseCases

    init() throws {
        t = try TestLibrary()
        var settings = AccountSettings()
        settings.attempts = AttemptRate(burst: 3, perMinute: 1)
        accounts = AccountUseCases(
            AccountDependencies(
                runner: CommandRunner(store: t.database.eventStore, clock: t.clock, ids: SequentialIDs(), random: FixedRandom()),
                hasher: hasher,
                tokens: RandomSessionTokens(), resetCodes: RandomResetCodes(), accounts: t.database.accounts,
                countries: try BundledCountryDirectory(),
                geolocator: NoCountry(),
                loginFailures: t.database.loginFailures(), settings: settings))
    }

    func signUpAda() async throws {
        _ = try await accounts.signUp.execute(
            SignupForm(email: "ada@example.org", password: "Analytical-1", country: "GB"), by: .anonymous)
    }

    @Test func aThrottledAttemptRunsNoBcrypt() async throws {
        try await signUpAda()
        for _ in 1...5 {
            await #expect(throws: InvalidCredentials.self) {
                try await accounts.logIn.execute(login: "ada@example.org", password: "Wrong-pass1")
            }
        }
        let before = hasher.runs.withLock { $0 }
        await #expect(throws: LoginThrottled.self) { try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1") }
        #expect(hasher.runs.withLock { $0 } == before)
    }

    @Test func failuresForAddressesWithoutAnAccountAreNotEvents() async throws {
        try await signUpAda()
        let head = try await t.library.health.headPosition()
        for n in 1...4 {
            await #expect(throws: InvalidCredentials.self) {
                try await accounts.logIn.execute(login: "guess\(n)@example.org", password: "Wrong-pass1")
            }
        }
        #expect(try await t.library.health.headPosition() == head)
        await #expect(throws: InvalidCredentials.self) {
            try await accounts.logIn.execute(login: "ada@example.org", password: "Wrong-pass1")
        }
        #expect(try await t.library.health.headPosition() == head + 1, "an account's failed login stays in its trail")
    }

    @Test func theOwnerLogsInFromAnotherPlaceWhileAStrangerIsLockedOut() async throws {
        try await signUpAda()
        for _ in 1...5 {
            await #expect(throws: InvalidCredentials.self) {
                try await accounts.logIn.execute(login: "ADA@example.org", password: "Wrong-pass1", client: "203.0.113.5")
            }
            t.clock.advance(by: 61)  // the client's attempt bucket refills; the failures stay
        }
        await #expect(throws: LoginThrottled.self) {
            try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1", client: "203.0.113.5")
        }
        #expect(try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1", client: "198.51.100.7").session != nil)
        #expect(try await accounts.logIn.execute(login: "ada@example.org", password: "Analytical-1").session != nil)
    }

    @Test func oneClientGetsItsBurstThenWaits() async throws {
        for n in 1...3 {
            await #expect(throws: InvalidCredentials.self) {
                try await accounts.logIn.execute(login: "x\(n)@example.org", password: "Wrong-pass1", client: "203.0.113.9")
            }
        }
        let runs = hasher.runs.withLock { $0 }
        await #expect(throws: TooManyAttempts(retryAfter: 60)) {
            try await accounts.logIn.execute(login: "x4@example.org", password: "Wrong-pass1", client: "203.0.113.9")
        }
        await #expect(throws: TooManyAttempts.self) {
            try await accounts.signUp.execute(
                SignupForm(email: "n@example.org", password: "Analytical-1", country: "GB"), client: "203.0.113.9", by: .anonymous)
        }
        #expect(hasher.runs.withLock { $0 } == runs, "a refused attempt hashes nothing")
        t.clock.advance(by: 60)
        await #expect(throws: InvalidCredentials.self) {
            try await accounts.logIn.execute(login: "x5@example.org", password: "Wrong-pass1", client: "203.0.113.9")
        }
    }

    @Test func aPasswordTypedDecomposedMatchesItsComposedSpelling() async throws {
        _ = try await accounts.signUp.execute(
            SignupForm(email: "zoe@example.org", password: "Caf\u{E9}-Pass1", country: "FR"), by: .anonymous)
        #expect(try await accounts.logIn.execute(login: "zoe@example.org", password: "Cafe\u{301}-Pass1").session != nil)
    }
}

@Suite("Token buckets")
struct TokenBucketTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aBurstThenTheRate() {
        let buckets = TokenBuckets(rate: AttemptRate(burst: 2, perMinute: 6))
        #expect(buckets.take("a", now: t0) == nil)
        #expect(buckets.take("a", now: t0) == nil)
        #expect(buckets.take("a", now: t0) == 10)
        #expect(buckets.take("b", now: t0) == nil)
        #expect(buckets.take("a", now: t0.addingTimeInterval(10)) == nil)
        #expect(buckets.take("a", now: t0.addingTimeInterval(10)) != nil)
    }

    @Test func memoryIsBounded() {
        let buckets = TokenBuckets(rate: AttemptRate(burst: 1, perMinute: 1), capacity: 100)
        for n in 0..<1_000 { _ = buckets.take("client-\(n)", now: t0.addingTimeInterval(Double(n) / 1000)) }
        #expect(buckets.count <= 100)
    }
}

@Suite("Geolocation cache")
struct CachedGeolocatorTests {
    final class Counting: IPGeolocator, Sendable {
        let calls = Mutex(0)
        func country(for ip: String) async -> String? {
            calls.withLock { $0 += 1 }
            return ip.hasPrefix("81.") ? "GB" : nil
        }
    }

    @Test func anAddressIsAskedOnceADayAndAnUnknownOneEveryTenMinutes() async {
        let source = Counting()
        let clock = ManualClock()
        let cached = CachedGeolocator(source, clock: clock)
        for _ in 1...20 { #expect(await cached.country(for: "81.2.69.160") == "GB") }
        #expect(source.calls.withLock { $0 } == 1)
        for _ in 1...5 { #expect(await cached.country(for: "8.8.8.8") == nil) }
        #expect(source.calls.withLock { $0 } == 2)
        clock.advance(by: 601)
        _ = await cached.country(for: "8.8.8.8")
        _ = await cached.country(for: "81.2.69.160")
        #expect(source.calls.withLock { $0 } == 3)
        clock.advance(by: 24 * 3600)
        _ = await cached.country(for: "81.2.69.160")
        #expect(source.calls.withLock { $0 } == 4)
    }

    @Test func memoryIsBounded() async {
        let cached = CachedGeolocator(Counting(), clock: ManualClock(), capacity: 50)
        for n in 0..<500 { _ = await cached.country(for: "81.0.\(n / 250).\(n % 250)") }
        #expect(cached.count <= 50)
    }
}

@Suite("Stream names")
struct StreamNameTests {
    @Test func twoSpellingsAreTwoStreamsAsTheStoreKeepsThem() async throws {
        let composed = StreamName("email-zo\u{EB}@example.org")
        let decomposed = StreamName("email-zoe\u{308}@example.org")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(composed == StreamName("email-zo\u{EB}@example.org"))
        #expect(StreamName("book-1") != StreamName("book-10") && StreamName("") != StreamName("a") && StreamName("") == StreamName(""))
    }
}
