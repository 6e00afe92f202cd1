import Synchronization

/// How long a connection has waited for its client: the clock runs while the server waits for a
/// command or for the client to take an answer, never while it works out an answer (a login's
/// password hashing is not the client's silence).
final class IdleWatch: Sendable {
    private let timeout: Duration
    /// nil while a command is being answered, else when the server started waiting.
    private let waitingSince: Mutex<ContinuousClock.Instant?>

    init(timeout: Duration) {
        self.timeout = timeout
        waitingSince = Mutex(.now)
    }

    /// A command arrived: the clock stops.
    func working() { waitingSince.withLock { $0 = nil } }

    /// The answers are sent: the clock starts again.
    func waiting() { waitingSince.withLock { $0 = .now } }

    /// Returns once the client has been silent for the whole timeout; throws when cancelled.
    func silence() async throws {
        while true {
            guard let since = waitingSince.withLock({ $0 }) else {
                try await Task.sleep(for: timeout)
                continue
            }
            if ContinuousClock.now >= since + timeout { return }
            try await Task.sleep(until: since + timeout)
        }
    }
}
