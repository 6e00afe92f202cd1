import Application
import Domain
import Foundation
import GRDB
import LogChain
import SQLiteStore
import Synchronization
import Testing

/// The writer's batches: appends queued together are written in one transaction, and one that
/// fails is undone alone.
@Suite("SQLite writer's batches")
struct SQLiteBatchTests {
    @Test func aFailingProjectionRollsItsAppendBackAndLeavesTheOthersInTheBatch() async throws {
        let store = try SQLiteUnderTest(durability: .off)
        // The same book added on two streams: the catalogue refuses the second (unique id), so that append fails whole.
        try await store.append([StreamAppend("first", expected: .noStream, events: [pending(7)])])
        await #expect(throws: (any Error).self) {
            try await store.append([StreamAppend("second", expected: .noStream, events: [pending(8), pending(7)])])
        }
        #expect(try await store.read("second").isEmpty)
        #expect(try await store.readAll(after: 0, limit: 10).map(\.position) == [1])
    }

    @Test func anAppendFailingMidWayInABusyBatchFailsAloneAndTheBatchIsWrittenAgain() async throws {
        let store = try SQLiteUnderTest(durability: .off)
        try await store.append([StreamAppend("first", expected: .noStream, events: [pending(7)])])
        // Forty appends at once, so they share batches; one writes an event and then fails on its second (the same book again).
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for n in 0..<40 {
                group.addTask {
                    let events = n == 20 ? [pending(100), pending(7)] : [pending(200 + n)]
                    let done = (try? await store.append([StreamAppend(StreamName("s-\(n)"), expected: .noStream, events: events)])) != nil
                    return (n, done)
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.filter { !$0.value }.map(\.key) == [20])
        #expect(try await store.read("s-20").isEmpty)
        let log = try await store.readAll(after: 0, limit: 100)
        #expect(log.map(\.position) == Array(1...40))
        #expect(Set(log.map(\.stream.rawValue)) == Set(["first"] + (0..<40).filter { $0 != 20 }.map { "s-\($0)" }))
    }

    /// Whether each of `appends` succeeded (by its index), all queued while a rebuild holds the
    /// writer, so that they share their batch: `inOrder`, one after the other in the queue.
    static func queuedBehindTheWriter(_ database: LibraryDatabase, _ appends: [StreamAppend], inOrder: Bool = false) async throws
        -> [Int: Bool]
    {
        let store = database.eventStore
        let (holding, held) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: (Int, Bool)?.self) { group in
            // The rebuild holds the writer for a moment, while the appends queue behind it.
            group.addTask {
                _ = try await database.rebuild { _, _ in
                    held.yield()
                    Thread.sleep(forTimeInterval: 0.4)
                }
                return nil
            }
            var waiting = holding.makeAsyncIterator()
            _ = await waiting.next()
            for (index, append) in appends.enumerated() {
                group.addTask { (index, (try? await store.append([append])) != nil) }
                if inOrder { try await Task.sleep(for: .milliseconds(20)) }
            }
            return try await group.reduce(into: [Int: Bool]()) { if let (n, done) = $1 { $0[n] = done } }
        }
    }

    /// As above, with the appends held behind a rebuild that has the writer, so that the ones
    /// failing after they wrote share their batch with appends behind them: those are written after
    /// the failed ones are undone, at the positions they did not take. Three fail, so that one at
    /// least has an append behind it in the batch, whatever order the tasks start in.
    @Test func anAppendUndoneInItsBatchLeavesThePositionsAfterItToTheAppendsBehindIt() async throws {
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        let store = database.eventStore
        try await store.append([StreamAppend("first", expected: .noStream, events: [pending(7)])])
        let failing: Set = [2, 6, 9]
        let outcomes = try await Self.queuedBehindTheWriter(
            database,
            (0..<12).map { n in
                let events = failing.contains(n) ? [pending(100 + n), pending(7)] : [pending(200 + n)]
                return StreamAppend(StreamName("s-\(n)"), expected: .noStream, events: events)
            })
        #expect(Set(outcomes.filter { !$0.value }.map(\.key)) == failing)
        #expect(try await store.readAll(after: 0, limit: 100).map(\.position) == Array(1...10))
    }

    /// Appends to one stream queued together meet or miss their expectations as if written one by
    /// one (each sees the stream as the appends before it in the batch left it, an append undone
    /// leaving it as it was), whether the batch is written plainly or again with a savepoint each
    /// (when one of them fails after writing, as above).
    @Test(arguments: [false, true])
    func appendsToOneStreamInOneBatchMeetTheirExpectationsInTurn(withAFailure: Bool) async throws {
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        let store = database.eventStore
        try await store.append([StreamAppend("seven", expected: .noStream, events: [pending(7)])])
        let (first, second, third) = (pending(1), pending(2), pending(3))
        try await store.append([StreamAppend("s", expected: .noStream, events: [first])])
        // In queue order: each expectation as the stream stands after the appends before it.
        var queue: [(append: StreamAppend, succeeds: Bool)] = [
            (StreamAppend("s", expected: .endingWith(first.metadata.eventID, version: 1), events: [second]), true),
            (StreamAppend("s", expected: .endingWith(second.metadata.eventID, version: 2), events: [third]), true),
            (StreamAppend("s", expected: .endingWith(second.metadata.eventID, version: 2), events: [pending(4)]), false),
            (StreamAppend("s", expected: .exactly(2), events: [pending(5)]), false),
            (StreamAppend("s", expected: .exactly(3), events: [pending(6)]), true),
        ]
        // Book 7 is in the catalogue already: this append fails once it has written its first event.
        if withAFailure { queue.insert((StreamAppend("t", expected: .noStream, events: [pending(100), pending(7)]), false), at: 2) }
        queue.append((StreamAppend("s", expected: .exactly(4), events: [pending(8)]), true))
        let outcomes = try await Self.queuedBehindTheWriter(database, queue.map(\.append), inOrder: true)
        #expect(outcomes == Dictionary(uniqueKeysWithValues: queue.enumerated().map { ($0.offset, $0.element.succeeds) }))
        #expect(try await store.read("s").map(\.version) == [1, 2, 3, 4, 5])
        #expect(try await store.read("t").isEmpty)
    }
}
