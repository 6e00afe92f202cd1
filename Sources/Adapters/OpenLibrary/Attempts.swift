import Application

/// The attempts of one call to Open Library: a few jittered retries on transient failures, all
/// within one overall deadline. Each attempt's own timeout is capped by the time left, and no
/// retry starts once the deadline has passed, so a hanging Open Library costs a caller the
/// deadline, not the retries times the timeout.
struct Attempts: Sendable {
    /// The longest one attempt may take.
    var timeout: Duration
    /// Attempts after the first.
    var retries: Int
    /// The pause before the first retry; it doubles for each one after, times a jitter.
    var retryBase: Duration

    /// A retry with less time than this left is not started: it could not get an answer.
    static let shortestRetry: Duration = .milliseconds(50)

    /// The pause before attempt `number` (0 is the first) and the time it may take, with
    /// `timeLeft` until the deadline now; nil when no attempt is left to make.
    func plan(_ number: Int, timeLeft: Duration, jitter: Double) -> (pause: Duration, timeout: Duration)? {
        guard number <= retries else { return nil }
        let pause = number == 0 ? .zero : retryBase * (Double(1 << min(number - 1, 30)) * jitter)
        let left = timeLeft - pause
        guard left > .zero, number == 0 || left >= Self.shortestRetry else { return nil }
        return (pause, min(timeout, left))
    }

    /// Runs `attempt` (given its timeout) until it succeeds, fails for good (anything but
    /// `.unavailable`), the retries run out or `deadline` passes on `clock`; then throws the last
    /// failure, or `tooSlow` when the deadline left no time for a first attempt.
    func run<C: Clock, T>(
        until deadline: C.Instant, on clock: C, jitter: () -> Double = { .random(in: 0.5...1.5) },
        isolation: isolated (any Actor)? = #isolation, _ attempt: (Duration) async throws(OpenLibraryHTTP.Failure) -> T
    ) async throws(OpenLibraryHTTP.Failure) -> T where C.Duration == Duration {
        var last = OpenLibraryHTTP.Failure.unavailable(SearchUnavailable(.tooSlow, detail: "the deadline passed before an attempt"))
        var number = 0
        while let (pause, timeout) = plan(number, timeLeft: clock.now.duration(to: deadline), jitter: jitter()) {
            if pause > .zero { try? await clock.sleep(until: clock.now.advanced(by: pause), tolerance: nil) }
            do {
                return try await attempt(timeout)
            } catch .unavailable(let trouble) {
                last = .unavailable(trouble)
            } catch {
                throw error
            }
            number += 1
        }
        throw last
    }
}
