import Application
import Synchronization

/// An append waiting for its store's writer: each stream's expectation and encoded events, the
/// request's receipt (safe retries), and the caller waiting for its position.
package struct PendingAppend: Sendable {
    package let appends: [(stream: StreamName, expected: ExpectedVersion, events: [EncodedEvent])]
    /// The request's receipt, recorded with the events.
    package let receipt: RequestReceipt?
    let continuation: CheckedContinuation<Int64, any Error>

    /// Answers the caller: the append's last position, or why it failed.
    package func answer(_ result: Result<Int64, any Error>) { continuation.resume(with: result) }

    /// How many events the append holds.
    package var eventCount: Int { appends.reduce(0) { $0 + $1.events.count } }
}

/// The appends waiting to be group-committed, shared by both stores: an append is checked and
/// encoded by its caller, outside the writer, then queued; the first append of an idle queue
/// starts the store's drain, which takes every waiting append as one batch until none waits.
package final class AppendQueue: Sendable {
    private struct State: ~Copyable {
        var waiting: [PendingAppend] = []
        var draining = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Queues `appends` and waits for the writer's answer; `startDrain` runs when no drain is
    /// under way. A stream name holding a NUL is refused first: neither store's text keeps it
    /// whole, and a stream stored cut short would break the hash chain.
    package func append(_ appends: [StreamAppend], receipt: RequestReceipt?, startDrain: @Sendable () -> Void) async throws -> Int64 {
        if let bad = appends.first(where: { $0.stream.rawValue.utf8.contains(0) }) {
            throw UnstorableStreamName(stream: bad.stream)
        }
        let encoded = try appends.map { ($0.stream, $0.expected, try $0.events.map(EncodedEvent.init)) }
        return try await withCheckedThrowingContinuation { continuation in
            let lead = state.withLock { state in
                state.waiting.append(PendingAppend(appends: encoded, receipt: receipt, continuation: continuation))
                defer { state.draining = true }
                return !state.draining
            }
            if lead { startDrain() }
        }
    }

    /// Every waiting append, as one batch; when none waits, the drain ends and the next append
    /// starts another.
    package func takeBatch() -> [PendingAppend] {
        state.withLock { state in
            let batch = state.waiting
            state.waiting = []
            if batch.isEmpty { state.draining = false }
            return batch
        }
    }
}
