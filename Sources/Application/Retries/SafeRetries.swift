import Foundation

/// Safe retries of the requests that create something (`Idempotency-Key`): a retry of a request,
/// same key and same bytes, gets the first answer and records nothing; the same key for another
/// request is refused; a retry while the first still runs is refused rather than run twice. A key
/// is kept for `keptFor`, then forgotten. The key, scoped to the caller, and the request are kept
/// only as keyed digests (`RetryDigests`), and the answer sealed with a key derived from the
/// request, so the file alone gives away neither a session token nor what was sent.
public struct SafeRetries: Sendable {
    /// How long a key is kept: a retry within it gets the first answer; after it the key is new again.
    public static let keptFor: TimeInterval = 24 * 60 * 60
    /// The operations whose requests may carry a key: those that create something.
    public static let operations: Set<LibraryOperation> = [.borrowBooks, .addBook, .importBook, .signUp]
    /// How often the expired receipts are swept away (a lookup ignores them anyway).
    static let sweepEvery: TimeInterval = 60 * 60

    let runner: CommandRunner
    let receipts: any RequestReceipts
    private let inFlight = InFlightKeys()
    private let lastSweep = SweepTime()

    public init(runner: CommandRunner, receipts: any RequestReceipts) {
        self.runner = runner
        self.receipts = receipts
    }

    /// Runs `request` once: the first time with `run`, whose appends record the request's receipt in
    /// their own atomic step; a retry answers what the first answered. Refuses a malformed key (400),
    /// the key of another request (422), a retry while the first runs (409), and a retry of a request
    /// recorded whose answer was lost in a crash (409: recorded once, never again).
    public func execute(
        _ request: RetryableRequest, by principal: Principal, _ run: () async throws -> RequestAnswer
    ) async throws -> RequestAnswer {
        guard RetryableRequest.isWellFormed(key: request.key) else { throw RetryRefused(.badKey) }
        let digests = RetryDigests(runner.claimNames, scope: principal.actor, request)
        let now = runner.clock.now()
        await sweep(now)
        guard inFlight.begin(digests.key) else { throw RetryRefused(.inProgress) }
        defer { inFlight.end(digests.key) }
        if let kept = try await receipts.receipt(digests.key), kept.receipt.expiresAt > now { return try replay(kept, digests) }
        let receipt = RequestReceipt(
            key: digests.key, fingerprint: digests.fingerprint, attempt: runner.ids.next(), recordedAt: now,
            expiresAt: now.addingTimeInterval(Self.keptFor))
        let answer: RequestAnswer
        do {
            answer = try await RetryScope.$receipt.withValue(receipt) { try await run() }
        } catch is RequestAlreadyRecorded {
            // Another process recorded this key meanwhile: its answer, or the refusal to run again.
            guard let kept = try await receipts.receipt(digests.key) else { throw RetryRefused(.inProgress) }
            return try replay(kept, digests)
        }
        // Only a success is kept: a refusal recorded nothing, so a corrected request may use the key.
        if (200..<300).contains(answer.status) { try? await receipts.keep(try digests.seal(answer), for: receipt) }
        return answer
    }

    /// The first answer, for a retry of the same request.
    private func replay(_ kept: KeptReceipt, _ digests: RetryDigests) throws -> RequestAnswer {
        guard kept.receipt.fingerprint == digests.fingerprint else { throw RetryRefused(.keyReused) }
        guard let sealed = kept.answer, let answer = try? digests.open(sealed) else {
            throw RetryRefused(.answerNotKept(recordedAt: kept.receipt.recordedAt))
        }
        return answer
    }

    /// Forgets the expired receipts, at most once an hour, in passing; a failure waits for the next.
    private func sweep(_ now: Date) async {
        let due = lastSweep.time.withLock { last in
            guard last.map({ now.timeIntervalSince($0) >= Self.sweepEvery }) ?? true else { return false }
            last = now
            return true
        }
        if due { _ = try? await receipts.forget(expiredAt: now) }
    }
}

/// A request that may carry an `Idempotency-Key`, as the adapter received it.
public struct RetryableRequest: Sendable {
    public let key: String
    public let method: String
    /// The route as the contract names it (`/api/v1/loans`), not the address asked.
    public let route: String
    /// The body's bytes exactly as sent: a retry sends the same bytes.
    public let body: [UInt8]

    public init(key: String, method: String, route: String, body: [UInt8]) {
        self.key = key
        self.method = method
        self.route = route
        self.body = body
    }

    /// Whether `key` is a key: 1 to 255 visible ASCII characters (no space).
    public static func isWellFormed(key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

/// An answer as a retry gets it again: its status, headers and body.
public struct RequestAnswer: Codable, Equatable, Sendable {
    public let status: Int
    /// Name and value of each header kept (the adapter chooses which).
    public let headers: [[String]]
    public let body: Data

    public init(status: Int, headers: [[String]], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The requests with a key running in this process: a second one waits for no one, it is refused.
private final class InFlightKeys: Sendable {
    private let keys = Guarded<Set<String>>([])
    func begin(_ key: String) -> Bool { keys.withLock { $0.insert(key).inserted } }
    func end(_ key: String) { _ = keys.withLock { $0.remove(key) } }
}

/// When the expired receipts were last swept away, in this process.
private final class SweepTime: Sendable {
    let time = Guarded<Date?>(nil)
}

/// The receipt of the request this task runs, for the command runner to append with its events.
enum RetryScope {
    @TaskLocal static var receipt: RequestReceipt?
}
