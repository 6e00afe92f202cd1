import Application
import Foundation
import Testing

/// The event store port's contract, run against every adapter.
@Suite("Event store contract")
struct EventStoreContractTests {
    @Test("appended events are read back in order", arguments: StoreFactory.all)
    func appendAndRead(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let first = pending(1)
        let head = try await store.append([StreamAppend("s-1", expected: .noStream, events: [first, pending(2)])])
        #expect(head == 2)
        let events = try await store.read("s-1")
        #expect(events.map(\.version) == [1, 2])
        #expect(events.map(\.position) == [1, 2])
        #expect(events.map(\.event) == [bookAdded(1), bookAdded(2)])
        #expect(events[0].metadata == first.metadata)
        #expect(try await store.read("unknown").isEmpty)
    }

    @Test("a stream reads from any version on, for states cached up to it", arguments: StoreFactory.all)
    func readAfterVersion(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2)])])
        try await store.append([StreamAppend("s-2", expected: .noStream, events: [pending(3)])])
        try await store.append([StreamAppend("s-1", expected: .exactly(2), events: [pending(4)])])
        #expect(try await store.read("s-1", after: 1).map(\.version) == [2, 3])
        #expect(try await store.read("s-1", after: 2).map(\.event) == [bookAdded(4)])
        #expect(try await store.read("s-1", after: 3).isEmpty)
        #expect(try await store.read("unknown", after: 5).isEmpty)
    }

    @Test("several streams read at once answer as each read alone, in the order asked", arguments: StoreFactory.all)
    func readSeveralTails(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2)])])
        try await store.append([StreamAppend("s-2", expected: .noStream, events: [pending(3)])])
        let tails = try await store.read([("s-2", 0), ("unknown", 0), ("s-1", 1), ("s-1", 2)])
        #expect(tails.map { $0.map(\.position) } == [[3], [], [2], []])
        #expect(tails[2] == (try await store.read("s-1", after: 1)))
        #expect(try await store.read([]).isEmpty)
    }

    @Test("a stale expected version is a conflict that writes nothing", arguments: StoreFactory.all)
    func optimisticConflict(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])])
        await #expect(throws: AppendConflict(stream: "s-1", expected: .noStream, actual: 1)) {
            try await store.append([StreamAppend("s-1", expected: .noStream, events: [pending(2)])])
        }
        await #expect(throws: AppendConflict(stream: "s-1", expected: .exactly(2), actual: 1)) {
            try await store.append([StreamAppend("s-1", expected: .exactly(2), events: [pending(2)])])
        }
        try await store.append([StreamAppend("s-1", expected: .exactly(1), events: [pending(3)])])
        #expect(try await store.read("s-1").map(\.event) == [bookAdded(1), bookAdded(3)])
    }

    @Test("a stream listed without events is only checked: stale, it fails the append whole", arguments: StoreFactory.all)
    func versionCheckWithoutEvents(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await store.append([StreamAppend("read", expected: .noStream, events: [pending(1)])])
        await #expect(throws: AppendConflict(stream: "read", expected: .noStream, actual: 1)) {
            try await store.append([
                StreamAppend("read", expected: .noStream, events: []), StreamAppend("written", expected: .noStream, events: [pending(2)]),
            ])
        }
        #expect(try await store.read("written").isEmpty)
        try await store.append([
            StreamAppend("read", expected: .exactly(1), events: []), StreamAppend("written", expected: .noStream, events: [pending(3)]),
        ])
        #expect(try await store.read("read").map(\.version) == [1])
        #expect(try await store.read("written").map(\.event) == [bookAdded(3)])
    }

    @Test("an append expecting the stream to end with one event is written only after that event", arguments: StoreFactory.all)
    func expectedLastEvent(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let (first, other) = (pending(1), pending(2))
        try await store.append([StreamAppend("s-1", expected: .noStream, events: [first])])
        // Another event brought the stream to the version expected: not the one the append follows.
        let stale = ExpectedVersion.endingWith(other.metadata.eventID, version: 1)
        await #expect(throws: AppendConflict(stream: "s-1", expected: stale, actual: 1)) {
            try await store.append([StreamAppend("s-1", expected: stale, events: [pending(3)])])
        }
        let ahead = ExpectedVersion.endingWith(first.metadata.eventID, version: 2)
        await #expect(throws: AppendConflict(stream: "s-1", expected: ahead, actual: 1)) {
            try await store.append([StreamAppend("s-1", expected: ahead, events: [pending(3)])])
        }
        // Checked without events too, and for several streams in one append.
        let next = pending(4)
        try await store.append([
            StreamAppend("s-1", expected: .endingWith(first.metadata.eventID, version: 1), events: []),
            StreamAppend("s-2", expected: .noStream, events: [next]),
        ])
        try await store.append([
            StreamAppend("s-1", expected: .endingWith(first.metadata.eventID, version: 1), events: [pending(5)]),
            StreamAppend("s-2", expected: .endingWith(next.metadata.eventID, version: 1), events: [pending(6)]),
        ])
        #expect(try await store.read("s-1").map(\.event) == [bookAdded(1), bookAdded(5)])
        #expect(try await store.read("s-2").map(\.event) == [bookAdded(4), bookAdded(6)])
    }

    @Test("one stale stream fails a multi-stream append whole", arguments: StoreFactory.all)
    func multiStreamAtomicity(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await store.append([StreamAppend("a", expected: .noStream, events: [pending(1)])])
        await #expect(throws: AppendConflict.self) {
            try await store.append([
                StreamAppend("b", expected: .noStream, events: [pending(2)]),
                StreamAppend("a", expected: .noStream, events: [pending(3)]),
            ])
        }
        #expect(try await store.read("b").isEmpty)
        #expect(try await store.readAll(after: 0, limit: 100).count == 1)
        try await store.append([
            StreamAppend("b", expected: .noStream, events: [pending(2)]),
            StreamAppend("a", expected: .exactly(1), events: [pending(3)]),
        ])
        #expect(try await store.readAll(after: 0, limit: 100).map(\.stream) == ["a", "b", "a"])
    }

    @Test("the log is in one global order, readable from any position", arguments: StoreFactory.all)
    func globalOrder(factory: StoreFactory) async throws {
        let store = try await factory.make()
        for n in 1...5 { try await store.append([StreamAppend(StreamName("s-\(n % 2)"), expected: .any, events: [pending(n)])]) }
        let all = try await store.readAll(after: 0, limit: 100)
        #expect(all.map(\.position) == [1, 2, 3, 4, 5])
        #expect(all.map(\.event) == (1...5).map(bookAdded))
        #expect(try await store.readAll(after: 3, limit: 1).map(\.position) == [4])
        #expect(try await store.readAll(after: 5, limit: 10).isEmpty)
    }

    @Test("concurrent appends from many tasks are all kept, positions without gaps", arguments: StoreFactory.all)
    func concurrentAppends(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...200 {
                group.addTask { try await store.append([StreamAppend(StreamName("s-\(n)"), expected: .noStream, events: [pending(n)])]) }
            }
            try await group.waitForAll()
        }
        let all = try await store.readAll(after: 0, limit: 1000)
        #expect(all.map(\.position) == Array(1...200))
        #expect(Set(all.map(\.stream)).count == 200)
    }

    @Test("racing writers on one stream: exactly one wins each version, losers fail alone", arguments: StoreFactory.all)
    func racingWriters(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for n in 1...50 {
                group.addTask {
                    // Every task also writes its own stream in a separate append: conflicts must not fail those.
                    async let own: Int64? = try? store.append([
                        StreamAppend(StreamName("own-\(n)"), expected: .noStream, events: [pending(1000 + n)])
                    ])
                    let won = (try? await store.append([StreamAppend("shared", expected: .noStream, events: [pending(n)])])) != nil
                    _ = await own
                    return won
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.read("shared").count == 1)
        #expect(try await store.readAll(after: 0, limit: 1000).count == 51)
    }
}
