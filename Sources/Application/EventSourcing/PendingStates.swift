import Foundation

/// A stream as one aggregate folds it: the key of a state kept for it.
struct AggregateStream: Hashable, Sendable {
    let aggregate: ObjectIdentifier
    let stream: StreamName

    init<A: EventSourced>(_: A.Type, _ stream: StreamName) {
        aggregate = ObjectIdentifier(A.self)
        self.stream = stream
    }
}

/// How one append ended, for the commands that decided on its events before it was answered.
final class AppendOutcome: @unchecked Sendable {  // every access to `state` holds `lock`
    private struct State {
        var succeeded: Bool?
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    private let lock = NSLock()
    private var state = State()

    /// Records how the append ended and wakes every command waiting for it.
    func resolve(succeeded: Bool) {
        let waiting = lock.withLock {
            state.succeeded = succeeded
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume(returning: succeeded) }
    }

    /// Whether the append was written (and is on disk), once it is answered.
    func succeeded() async -> Bool {
        await withCheckedContinuation { continuation in
            let known = lock.withLock {
                if state.succeeded == nil { state.waiting.append(continuation) }
                return state.succeeded
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}

/// The states of streams as appends on their way to the store leave them: the next command on
/// such a stream decides on that state at once, and expects the stream to end with that append's
/// last event (`ExpectedVersion.endingWith`), rather than deciding on the log as it was and
/// conflicting. So a contended book takes several commands per commit instead of one. An entry
/// lives from the append's hand-over to its answer; the state cache keeps it after success.
final class PendingStates: @unchecked Sendable {  // every access to `entries` holds `lock`
    /// A stream's state once an append in flight is written, and what it waits on.
    struct Entry: Sendable {
        let state: any Sendable
        let version: Int64
        let lastEvent: UUID
        let outcome: AppendOutcome
    }

    private let lock = NSLock()
    private var entries: [AggregateStream: Entry] = [:]

    /// The state `stream` will be in once the newest append in flight on it is written, if any.
    func state<A: EventSourced>(_: A.Type, _ stream: StreamName) -> (state: A.State, entry: Entry)? {
        let key = AggregateStream(A.self, stream)
        return lock.withLock {
            guard let entry = entries[key], let state = entry.state as? A.State else { return nil }
            return (state, entry)
        }
    }

    /// Records the state an append in flight leaves `stream` in, unless one as new is recorded;
    /// returns the key to forget it by.
    @discardableResult
    func keep<A: EventSourced>(_: A.Type, _ stream: StreamName, _ entry: Entry) -> AggregateStream {
        let key = AggregateStream(A.self, stream)
        lock.withLock {
            if let kept = entries[key], kept.version >= entry.version { return }
            entries[key] = entry
        }
        return key
    }

    /// Forgets the states an append recorded at `keys`, once it is answered (a newer append's stay).
    func forget(_ outcome: AppendOutcome, at keys: [AggregateStream]) {
        lock.withLock {
            for key in keys where entries[key]?.outcome === outcome { entries[key] = nil }
        }
    }

    /// How many streams have an append in flight.
    var count: Int { lock.withLock { entries.count } }
}
