import Application
import Dispatch
import LogChain
import Synchronization

/// Answers the appends of committed batches once the write-ahead log that holds them is on disk,
/// so that the writer never waits for the disk: it commits a batch without an fsync
/// (`synchronous = NORMAL`) and goes on to the next one while this flushes the WAL on a thread of
/// its own. One flush answers every batch committed before it began: an append is answered only
/// once its events are on disk, as with `synchronous = FULL`. A batch may be seen by the read
/// models' readers before its flush; the event store's own reads wait for it (`awaitDurable`), and
/// no append is answered before it (ARCHITECTURE.md, "Durability").
///
/// A flush that fails leaves the batches it covered committed but not known to be on disk: their
/// appends fail with `UnconfirmedWrite`, and so does every later append, until the library is
/// opened again (as PostgreSQL stops at a failed fsync: the kernel may have dropped the pages).
final class SyncedAnswers: Sendable {
    /// Flushes the WAL to disk; throws when the disk does not confirm it.
    typealias Flush = @Sendable () throws -> Void

    private struct State: ~Copyable {
        var waiting: [(append: PendingAppend, result: Result<Int64, any Error>)] = []
        var flushing = false
        var failure: UnconfirmedWrite?
        /// Every event up to this position is known to be on disk.
        var durable: Int64 = 0
        /// The newest position of the batches handed over: written (if not yet on disk) before any
        /// flush that begins after. (The pool's other writes commit with FULL: on disk already.)
        var committed: Int64 = 0
    }

    private let state = Mutex(State())
    /// Every flush runs here, one at a time: a write error is reported to one flush only, so two
    /// at once could let one of them pass over pages the kernel dropped.
    private let queue = DispatchQueue(label: "shelfmark.wal-flush")
    private let flush: Flush

    init(flush: @escaping Flush) { self.flush = flush }

    /// Why appends must fail now: an earlier flush failed. Checked before a batch is written.
    var failure: UnconfirmedWrite? { state.withLock { $0.failure } }

    /// Answers `appends` with `results` once a flush begun after this call has returned. A conflict
    /// is answered at once: it wrote nothing, and the stream's new state its caller reads next
    /// waits for its flush (`awaitDurable`).
    func answerWhenDurable(_ appends: [PendingAppend], _ results: [Result<Int64, any Error>]) {
        var waiting: [(append: PendingAppend, result: Result<Int64, any Error>)] = []
        for (append, result) in zip(appends, results) {
            if case .failure(let error) = result, error is AppendConflict {
                append.answer(result)
            } else {
                waiting.append((append, result))
            }
        }
        if waiting.isEmpty { return }
        let newest = waiting.compactMap { try? $0.result.get() }.max() ?? 0
        let start = state.withLock { state in
            state.committed = max(state.committed, newest)
            state.waiting += waiting
            defer { state.flushing = true }
            return !state.flushing
        }
        if start { queue.async { self.flushRound() } }
    }

    /// Returns once every event up to `position` (read from the log, so committed) is on disk: a
    /// reader decides nothing on an event a power cut could take back. Without a position, once
    /// everything committed so far is (before an anchor, an export or a backup leaves the process).
    func awaitDurable(_ position: Int64? = nil) async throws {
        if state.withLock({ $0.durable >= (position ?? $0.committed) }) { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                if let failure = self.flushed(covering: position) { return continuation.resume(throwing: failure) }
                continuation.resume()
            }
        }
    }

    /// Waits until every batch handed over so far has been answered.
    func settle() {
        while state.withLock({ $0.flushing }) { queue.sync {} }
    }

    /// Makes every event up to `position` (by default, everything handed over) durable: nothing to
    /// do if a flush already did, else a flush, after which everything committed before it began
    /// is on disk. Nil when done, else the failure every append now fails with.
    private func flushed(covering position: Int64? = nil) -> UnconfirmedWrite? {
        if let failure { return failure }
        let (done, covered) = state.withLock { state in
            (state.durable >= (position ?? state.committed), max(state.committed, position ?? 0))
        }
        if done { return nil }
        do {
            try flush()
            state.withLock { $0.durable = max($0.durable, covered) }
            return nil
        } catch {
            let unconfirmed = error as? UnconfirmedWrite ?? UnconfirmedWrite(reason: "\(error)")
            return state.withLock { state in
                state.failure = state.failure ?? unconfirmed
                return state.failure
            }
        }
    }

    /// Flushes once for every batch waiting and answers them; queues the next round behind any
    /// other flush asked for meanwhile, until none is waiting.
    private func flushRound() {
        let taken = state.withLock { state in
            let taken = state.waiting
            state.waiting = []
            if taken.isEmpty { state.flushing = false }
            return taken
        }
        if taken.isEmpty { return }
        let failure = flushed()
        for (append, result) in taken {
            if let failure, case .success = result { append.answer(.failure(failure)) } else { append.answer(result) }
        }
        queue.async { self.flushRound() }
    }
}

/// An append committed to the log whose flush to disk failed or could not be checked: it may or
/// may not be in the log after a power cut. Later appends fail with it until the library is reopened.
public struct UnconfirmedWrite: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, for the operator's log.
    public let reason: String

    public var description: String { "The write may not be on disk: \(reason)." }
}
