import Domain
import Foundation
import InMemory
import Synchronization
import Testing

@testable import Application

@Suite("Aggregate state cache")
struct StateCacheTests {
    /// An event store that remembers from which version each stream was read.
    final class RecordingStore: EventStore {
        let inner = InMemoryEventStore()
        let reads = Mutex<[Int64]>([])
        @discardableResult
        func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
            try await inner.append(appends, receipt: receipt)
        }
        func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
            reads.withLock { $0.append(version) }
            return try await inner.read(stream, after: version)
        }
        func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
            try await inner.readAll(after: position, limit: limit)
        }
        var claimNames: ClaimNames { inner.claimNames }
    }

    let id = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)

    func copies(_ state: BookState) -> Int? {
        guard case .inCatalogue(let book) = state else { return nil }
        return book.copies
    }

    func event(_ event: BookEvent, _ n: Int) -> PendingEvent { PendingEvent(.book(event), metadata(n)) }

    @Test func aLoadReadsOnlyTheEventsAfterTheCachedStateIncludingOtherWriters() async throws {
        // Given a book with 1 copy, loaded once
        let store = RecordingStore()
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom())
        let details = BookDetails(title: "Dune", authors: ["Frank Herbert"])
        try await store.append([
            StreamAppend(.book(id), expected: .noStream, events: [event(.added(BookAdded(book: id, details: details, copies: 1)), 1)])
        ])
        #expect(copies(try await runner.load(BookAggregate.self, .book(id)).state) == 1)

        // When another writer (another process, say) adds 2 copies behind the runner's back
        try await store.append([
            StreamAppend(
                .book(id), expected: .exactly(1),
                events: [
                    event(.copiesAdded(CopiesChanged(book: id, count: 2, total: 3)), 2)
                ])
        ])
        let loaded = try await runner.load(BookAggregate.self, .book(id))

        // Then the load sees them, reading the stream from version 1 on, not from the start
        #expect(copies(loaded.state) == 3)
        #expect(loaded.version == 2)
        #expect(store.reads.withLock { $0 } == [0, 1])
        #expect(try await runner.load(BookAggregate.self, .book(id)).version == 2)
        #expect(store.reads.withLock { $0 } == [0, 1, 2])
    }

    @Test func aCommandKeepsWhatItAppendedSoTheNextOneReadsNoneOfIt() async throws {
        // Given a book with 1 copy, added through the runner
        let store = RecordingStore()
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom())
        let details = BookDetails(title: "Dune", authors: ["Frank Herbert"])
        try await runner.transact(BookAggregate.self, .book(id), by: .cliOperator) { _ in
            [.added(BookAdded(book: id, details: details, copies: 1))]
        }

        // When a second command adds 2 copies
        try await runner.transact(BookAggregate.self, .book(id), by: .cliOperator) { _ in
            [.copiesAdded(CopiesChanged(book: id, count: 2, total: 3))]
        }

        // Then each command read only what came after the state it had appended, and found nothing
        #expect(store.reads.withLock { $0 } == [0, 1])
        let loaded = try await runner.load(BookAggregate.self, .book(id))
        #expect(copies(loaded.state) == 3)
        #expect(loaded.version == 2)
        #expect(store.reads.withLock { $0 } == [0, 1, 2])
    }

    @Test func aStreamDecidedTwiceInOneAppendIsReadBackNotGuessed() async throws {
        // Given a book with 1 copy, loaded once
        let store = RecordingStore()
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom())
        let details = BookDetails(title: "Dune", authors: ["Frank Herbert"])
        try await store.append([
            StreamAppend(.book(id), expected: .noStream, events: [event(.added(BookAdded(book: id, details: details, copies: 1)), 1)])
        ])

        // When one command records two decisions with events on it, each from the state it loaded
        try await runner.transact(by: .cliOperator) { transaction in
            let book = try await transaction.load(BookAggregate.self, .book(id))
            transaction.record(book, [.copiesAdded(CopiesChanged(book: id, count: 1, total: 2))])
            transaction.record(book, [.copiesAdded(CopiesChanged(book: id, count: 1, total: 3))])
        }

        // Then neither decision's state is kept as the stream's: the next load reads both events back
        let loaded = try await runner.load(BookAggregate.self, .book(id))
        #expect(store.reads.withLock { $0 } == [0, 1])
        #expect(copies(loaded.state) == 3)
        #expect(loaded.version == 3)
    }

    @Test func theLeastRecentlyUsedStatesGoFirstWhenFull() {
        // Given a cache of 4 streams, where stream 0 is read again after the others were kept
        let cache = StateCache(capacity: 4)
        for n in 0..<4 { cache.keep(BookAggregate.self, StreamName("s-\(n)"), .absent, version: Int64(n + 1)) }
        _ = cache.state(BookAggregate.self, "s-0")

        // When a fifth one comes
        cache.keep(BookAggregate.self, "s-4", .absent, version: 1)

        // Then the cache shrank, and kept the recently used ones
        #expect(cache.count <= 4)
        #expect(cache.state(BookAggregate.self, "s-0")?.version == 1)
        #expect(cache.state(BookAggregate.self, "s-4")?.version == 1)
        #expect(cache.state(BookAggregate.self, "s-1") == nil)
    }

    @Test func anOlderStateNeverReplacesANewerOne() {
        let cache = StateCache()
        cache.keep(BookAggregate.self, "s", .withdrawn(id), version: 5)
        cache.keep(BookAggregate.self, "s", .absent, version: 3)
        #expect(cache.state(BookAggregate.self, "s")?.version == 5)
        #expect(cache.state(UserAggregate.self, "s") == nil)
    }
}
