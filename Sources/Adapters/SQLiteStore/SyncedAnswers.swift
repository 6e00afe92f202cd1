import Application
import Dispatch
import LogChain
import Synchronization

/// Answers the appends of committed batches once the write-ahead log that holds them is on disk,
/// so that the writer never waits for the disk: it commits a batch without an fsync
/// (`synchronous = NORMAL`) and goes on to the next one while this flushes the WAL on a thread of
/// its own. One flush answers every batch committed before it began: an append is answered only
/// once its events are on disk, as with `synchronous = FULL`. A batch may be seen by readers
/// before its flush, never answered before it (ARCHITECTURE.md, "Durability").
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
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "shelfmark.wal-flush")
    private let flush: Flush

    init(flush: @escaping Flush) { self.flush = flush }

    /// Why appends must fail now: an earlier flush failed. Checked before a batch is written.
    var failure: UnconfirmedWrite? { state.withLock { $0.failure } }

    /// Answers `appends` with `results` once a flush begun after this call has returned. A conflict
    /// is answered at once: it wrote nothing, and its caller decides again on the stream's new state.
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
        let start = state.withLock { state in
            state.waiting += waiting
            defer { state.flushing = true }
            return !state.flushing
        }
        if start { queue.async { self.flushUntilIdle() } }
    }

    /// Flushes the WAL now, so that what a reader has seen of the log is on disk before it leaves
    /// the process (an anchor, an export, a backup).
    func flushNow() throws {
        if let failure = flushed() { throw failure }
    }

    /// Waits until every batch handed over so far has been answered.
    func settle() {
        while state.withLock({ $0.flushing }) { queue.sync {} }
    }

    /// Runs a flush; nil when it succeeded, else the failure every append now fails with.
    private func flushed() -> UnconfirmedWrite? {
        if let failure { return failure }
        do {
            try flush()
            return nil
        } catch {
            let unconfirmed = error as? UnconfirmedWrite ?? UnconfirmedWrite(reason: "\(error)")
            return state.withLock { state in
                state.failure = state.failure ?? unconfirmed
                return state.failure
            }
        }
    }

    private func flushUntilIdle() {
        while true {
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
        }
    }
}

/// An append committed to the log whose flush to disk failed or could not be checked: it may or
/// may not be in the log after a power cut. Later appends fail with it until the library is reopened.
public struct UnconfirmedWrite: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, for the operator's log.
    public let reason: String

    public var description: String { "The write may not be on disk: \(reason). Restart the library once the disk is checked." }
}
