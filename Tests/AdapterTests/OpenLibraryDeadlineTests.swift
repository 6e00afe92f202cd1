import Application
import Foundation
import Synchronization
import Testing

@testable import OpenLibrary

/// A clock whose time moves only when told, or when someone sleeps on it (at once, to the end
/// of the sleep): the retry loop runs through hours of hanging upstreams in no time at all.
final class SteppingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let time = Mutex(Instant(offset: .zero))
    var now: Instant { time.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }
    func advance(by duration: Duration) { time.withLock { $0 = $0.advanced(by: duration) } }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        time.withLock { $0 = max($0, deadline) }
    }
}

@Suite("One deadline for every attempt of an Open Library call")
struct OpenLibraryDeadlineTests {
    /// The defaults: attempts of at most 5 s, two retries, 200 ms before the first.
    let attempts = OpenLibrarySettings().attempts

    /// Runs the loop against an upstream that hangs: each attempt uses up its whole timeout.
    /// Returns the timeout each attempt was given.
    func hanging(deadline: Duration, attempts: Attempts) async -> [Duration] {
        let clock = SteppingClock()
        let given = Mutex<[Duration]>([])
        do {
            _ = try await attempts.run(until: clock.now.advanced(by: deadline), on: clock, jitter: { 1 }) {
                timeout throws(OpenLibraryHTTP.Failure) in
                given.withLock { $0.append(timeout) }
                clock.advance(by: timeout)
                throw .unavailable(SearchUnavailable(.tooSlow, detail: "hung"))
            }
            Issue.record("a hanging upstream answered")
        } catch {
            #expect(error.trouble.cause == .tooSlow)
        }
        #expect(clock.now.offset <= deadline, "the loop ran past its deadline")
        return given.withLock { $0 }
    }

    @Test func aHangingUpstreamCostsTheDeadlineNotThreeTimeouts() async {
        // Was 5 s + 0.2 s + 5 s + 0.4 s + 5 s = 15.6 s; now the second attempt gets what is left of 6 s, and no third starts.
        #expect(await hanging(deadline: .seconds(6), attempts: attempts) == [.seconds(5), .milliseconds(800)])
    }

    @Test func aDeadlineShorterThanOneAttemptCapsTheFirstAttempt() async {
        #expect(await hanging(deadline: .milliseconds(300), attempts: attempts) == [.milliseconds(300)])
    }

    @Test func aLongDeadlineLeavesEveryRetryItsTimeout() async {
        #expect(await hanging(deadline: .seconds(60), attempts: attempts) == [.seconds(5), .seconds(5), .seconds(5)])
    }

    @Test func fastFailuresAreRetriedAsBefore() async {
        let clock = SteppingClock()
        let count = Mutex(0)
        await #expect(throws: OpenLibraryHTTP.Failure.self) {
            try await attempts.run(until: clock.now.advanced(by: .seconds(6)), on: clock, jitter: { 1 }) {
                _ throws(OpenLibraryHTTP.Failure) in
                count.withLock { $0 += 1 }
                throw .unavailable(SearchUnavailable(.unreachable, detail: "refused"))
            }
        }
        #expect(count.withLock { $0 } == 3)
        #expect(clock.now.offset == .milliseconds(600), "two pauses, 200 ms then 400 ms")
    }

    @Test func answersAndRefusalsAreNotRetried() async throws {
        let clock = SteppingClock()
        let count = Mutex(0)
        let answer = try await attempts.run(until: clock.now.advanced(by: .seconds(6)), on: clock) { _ throws(OpenLibraryHTTP.Failure) in
            count.withLock { $0 += 1 }
            return 42
        }
        #expect(answer == 42)
        await #expect(throws: OpenLibraryHTTP.Failure.self) {
            try await attempts.run(until: clock.now.advanced(by: .seconds(6)), on: clock) { _ throws(OpenLibraryHTTP.Failure) -> Int in
                count.withLock { $0 += 1 }
                throw .refused(status: 403)
            }
        }
        #expect(count.withLock { $0 } == 2)
    }

    @Test(
        "the plan: a pause, then at most the time left",
        arguments: [
            (0, Duration.seconds(6), (Duration.zero, Duration.seconds(5))),
            (1, .seconds(1), (.milliseconds(200), .milliseconds(800))),
            (2, .seconds(1), (.milliseconds(400), .milliseconds(600))),
        ] as [(Int, Duration, (Duration, Duration))])
    func plan(number: Int, timeLeft: Duration, expected: (Duration, Duration)) {
        let plan = attempts.plan(number, timeLeft: timeLeft, jitter: 1)
        #expect(plan?.pause == expected.0 && plan?.timeout == expected.1)
    }

    @Test func noAttemptWithoutTimeOrRetriesLeft() {
        #expect(attempts.plan(0, timeLeft: .zero, jitter: 1) == nil, "a deadline already passed")
        #expect(attempts.plan(1, timeLeft: .milliseconds(230), jitter: 1) == nil, "30 ms after the pause is too little for a retry")
        #expect(attempts.plan(3, timeLeft: .seconds(60), jitter: 1) == nil, "two retries at most")
    }
}
