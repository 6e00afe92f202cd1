import Application
import CoreMetrics
import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@testable import SQLiteStore

/// Under `synchronous=FULL`, the writer commits without waiting for the disk and a queue of its own
/// flushes the WAL before any append is answered (`SyncedAnswers`, bench/PROFILE.md change 32).
@Suite("Appends answered once their WAL is flushed")
struct SyncedAnswersTests {
    @Test func anAppendIsAnsweredOnlyAfterAFlushBegunOnceItWasCommitted() async throws {
        let (folder, flushes, database, append) = try await heldFirstAppend()
        defer { _ = folder }
        #expect(flushes.headsSeen == [1])  // committed before the flush began
        try await Task.sleep(for: .milliseconds(100))
        #expect(!append.finished)  // not answered while the flush runs
        flushes.open()
        #expect(try await append.value == 1)
        try database.close()
    }

    @Test func aStreamReadWaitsUntilItsNewestEventIsOnDisk() async throws {
        let (folder, flushes, database, append) = try await heldFirstAppend()
        defer { _ = folder }
        let read = Watched { try await database.eventStore.read("s", after: 0).map(\.position) }
        let readAll = Task { try await database.eventStore.readAll(after: 0, limit: 10).map(\.position) }
        // Nothing new to wait for: a read past the event, or of another stream, answers at once.
        #expect(try await database.eventStore.read("s", after: 1).isEmpty)
        #expect(try await database.eventStore.read("t", after: 0).isEmpty)
        try await Task.sleep(for: .milliseconds(100))
        #expect(!read.finished)  // the event is committed, not yet on disk
        #expect(flushes.calls == 1)
        flushes.open()
        #expect(try await read.value == [1])
        #expect(try await readAll.value == [1])
        #expect(try await append.value == 1)
        #expect(flushes.calls == 1)  // the append's flush covered the reads: none of their own
        try database.close()
    }

    @Test func aConflictIsAnsweredWithoutWaitingForTheFlush() async throws {
        let (folder, flushes, database, append) = try await heldFirstAppend()
        defer { _ = folder }
        // The writer is free while the first batch is flushed: the second batch commits and conflicts.
        await #expect(throws: AppendConflict.self) {
            try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(2)])])
        }
        flushes.open()
        #expect(try await append.value == 1)
        try database.close()
    }

    @Test func aFailedFlushFailsItsAppendsAndEveryLaterOneUntilTheLibraryIsOpenedAgain() async throws {
        let folder = TemporaryFolder()
        let broken = UnconfirmedWrite(reason: "the test's disk said no")
        let database = try open(folder, flush: { throw broken })
        await #expect(throws: broken) {
            try await database.eventStore.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])])
        }
        await #expect(throws: broken) {
            try await database.eventStore.append([StreamAppend("s-2", expected: .noStream, events: [pending(2)])])
        }
        await #expect(throws: broken) { try await database.export { _ in } }
        // Nothing is decided on the unconfirmed event either.
        await #expect(throws: broken) { try await database.eventStore.read("s-1", after: 0) }
        try database.close()
        // The first was committed, not confirmed; the second was never written.
        let raw = try DatabaseQueue(path: folder.databasePath)
        #expect(try await raw.read { try String.fetchAll($0, sql: "SELECT stream_id FROM events") } == ["s-1"])
        try raw.close()

        let reopened = try LibraryDatabase(path: folder.databasePath)
        try await reopened.eventStore.append([StreamAppend("s-2", expected: .noStream, events: [pending(2)])])
        #expect(try await reopened.eventStore.readAll(after: 0, limit: 10).map(\.stream) == ["s-1", "s-2"])
        try reopened.close()
    }

    @Test func anAnchorAnExportAndABackupWaitUntilTheLogIsOnDisk() async throws {
        let folder = TemporaryFolder()
        let flushes = FlushGate(databasePath: folder.databasePath)
        let database = try open(folder, keyFile: folder.url.appendingPathComponent("chain.key").path, flush: flushes.flush)
        let leaving: [(name: String, run: @Sendable () async throws -> Void)] = [
            ("anchor", { _ = try await database.anchor(to: folder.url.appendingPathComponent("anchors").path, at: Date()) }),
            ("export", { _ = try await database.export { _ in } }),
            (
                "backup",
                {
                    _ = try await database.backUp(
                        to: folder.url.appendingPathComponent("copy.sqlite").path, anchors: nil, replacing: true
                    ) { _, _ in }
                }
            ),
        ]
        for (n, operation) in leaving.enumerated() {
            flushes.close()
            let calls = flushes.calls
            let append = Task {
                try await database.eventStore.append([StreamAppend(StreamName("s-\(n)"), expected: .noStream, events: [pending(n)])])
            }
            try await flushes.waitForCall(after: calls)
            let leaves = Watched { try await operation.run() }
            try await Task.sleep(for: .milliseconds(100))
            #expect(!leaves.finished, "\(operation.name) left before the log was on disk")
            flushes.open()
            try await leaves.value
            _ = try await append.value
            #expect(flushes.calls == calls + 1)  // the append's flush was enough
        }
        try database.close()
    }

    @Test(arguments: [Durability.normal, .off])
    func withoutFullDurabilityNothingIsFlushed(_ durability: Durability) async throws {
        let folder = TemporaryFolder()
        let flushes = FlushGate(databasePath: folder.databasePath, opened: true)
        let database = try open(folder, durability: durability, flush: flushes.flush)
        try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])])
        #expect(flushes.calls == 0)
        #expect(try await database.writerDurability() == durability)
        try database.close()
    }

    /// SQLite puts the WAL beside the file a symbolic link points to: the flush finds it there.
    @Test func aLibraryOpenedThroughASymbolicLinkFlushesTheWALSQLiteWrites() async throws {
        let real = TemporaryFolder()
        let link = TemporaryFolder()
        let linked = link.url.appendingPathComponent("library.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: real.databasePath)
        let database = try LibraryDatabase(path: linked)
        try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])])
        #expect(FileManager.default.fileExists(atPath: real.databasePath + "-wal"))
        #expect(try await database.writerDurability() == .full)  // the writer is back to FULL between batches
        try database.close()
    }

    /// A library whose first append (stream "s", position 1) is committed and held in its flush.
    private func heldFirstAppend() async throws -> (TemporaryFolder, FlushGate, LibraryDatabase, Watched<Int64>) {
        let folder = TemporaryFolder()
        let flushes = FlushGate(databasePath: folder.databasePath)
        let database = try open(folder, flush: flushes.flush)
        let append = Watched { try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])]) }
        try await flushes.waitForCall()
        return (folder, flushes, database, append)
    }

    private func open(
        _ folder: TemporaryFolder, durability: Durability = .full, keyFile: String? = nil, flush: @escaping SyncedAnswers.Flush
    ) throws -> LibraryDatabase {
        try LibraryDatabase(
            path: folder.databasePath, durability: durability, keyFile: keyFile, cipher: personalCipher, projecting: true,
            metrics: NOOPMetricsHandler.instance, flush: flush)
    }
}

/// A flush that counts its calls, reads the log's head as it begins (on a connection of its own),
/// and waits until the test opens it.
private final class FlushGate: Sendable {
    private struct State {
        var calls = 0
        var heads: [Int64] = []
        var opened: Bool
    }

    private let state: Mutex<State>
    private let gate = DispatchSemaphore(value: 0)
    private let databasePath: String

    init(databasePath: String, opened: Bool = false) {
        self.databasePath = databasePath
        state = Mutex(State(opened: opened))
    }

    var calls: Int { state.withLock { $0.calls } }
    var headsSeen: [Int64] { state.withLock { $0.heads } }

    var flush: SyncedAnswers.Flush {
        { [self] in
            var configuration = Configuration()
            configuration.readonly = true
            let head = try DatabaseQueue(path: databasePath, configuration: configuration).read { db in
                try Int64.fetchOne(db, sql: "SELECT MAX(position) FROM events") ?? 0
            }
            let opened = state.withLock { state in
                state.calls += 1
                state.heads.append(head)
                return state.opened
            }
            if !opened { gate.wait() }
        }
    }

    func open() {
        state.withLock { $0.opened = true }
        gate.signal()
    }

    /// Makes the next call wait until `open()`.
    func close() { state.withLock { $0.opened = false } }

    /// Waits (up to ten seconds) for a call after the first `count`.
    func waitForCall(after count: Int = 0) async throws {
        for _ in 0..<1_000 where calls <= count { try await Task.sleep(for: .milliseconds(10)) }
        #expect(calls > count)
    }
}

/// A task that tells whether it has finished.
private final class Watched<Value: Sendable>: Sendable {
    private final class Flag: Sendable { let done = Mutex(false) }
    private let flag: Flag
    private let task: Task<Value, any Error>

    init(_ body: @escaping @Sendable () async throws -> Value) {
        let flag = Flag()
        self.flag = flag
        task = Task {
            let value = try await body()
            flag.done.withLock { $0 = true }
            return value
        }
    }

    var finished: Bool { flag.done.withLock { $0 } }

    /// The task's value, once it has finished.
    var value: Value { get async throws { try await task.value } }
}
