import Domain
import Foundation
import InMemory
import Synchronization
import Testing

@testable import Application

/// `transact`: load, decide, append at the versions read, and on a conflict all of it again
/// after a jittered pause, never more than `maxAttempts` times.
@Suite("transact")
struct TransactTests {
    /// A store whose appends conflict the first `conflicts` times, then go through.
    final class ContendedStore: EventStore {
        let inner = InMemoryEventStore()
        let conflicts: Mutex<Int>
        init(conflicts: Int) { self.conflicts = Mutex(conflicts) }
        func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
            if conflicts.withLock({ left in
                defer { left -= 1 }; return left > 0
            }) {
                throw AppendConflict(stream: appends[0].stream, expected: appends[0].expected, actual: 99)
            }
            return try await inner.append(appends, receipt: receipt)
        }
        func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
            try await inner.read(stream, after: version)
        }
        func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
            try await inner.readAll(after: position, limit: limit)
        }
        var claimNames: ClaimNames { inner.claimNames }
    }

    let id = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)

    /// Adds the book; returns how many times the command ran.
    @discardableResult
    func add(_ runner: CommandRunner, attempts: inout Int) async throws -> Int {
        try await runner.transact(by: .cliOperator) { transaction in
            attempts += 1
            let book = try await transaction.load(BookAggregate.self, .book(id))
            try transaction.decide(.add(id, BookDraft(title: "Dune", authors: ["F"]), copies: 1), on: book) { BookRefused(id, $0) }
        }
        return attempts
    }

    @Test func aConflictRunsTheWholeCommandAgain() async throws {
        let store = ContendedStore(conflicts: 3)
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0))
        var attempts = 0
        try await add(runner, attempts: &attempts)
        #expect(attempts == 4)
        #expect(try await store.read(.book(id)).count == 1)
    }

    @Test func endlessConflictsGiveUpAfterMaxAttempts() async throws {
        let runner = CommandRunner(
            store: ContendedStore(conflicts: .max), clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0), maxAttempts: 5)
        var attempts = 0
        do {
            try await add(runner, attempts: &attempts)
            Issue.record("no conflict limit")
        } catch let error as TooMuchContention {
            #expect(error == TooMuchContention(attempts: 5))
        }
        #expect(attempts == 5)
    }

    @Test func aRepeatedCommandDecidesNothingAndAppendsNothing() async throws {
        let store = ContendedStore(conflicts: 0)
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom())
        var attempts = 0
        try await add(runner, attempts: &attempts)
        try await add(runner, attempts: &attempts)
        #expect(try await store.read(.book(id)).count == 1)
    }

    @Test func thePauseGrowsWithTheAttemptAndIsDrawnFromTheRandomSource() {
        let half = CommandRunner(store: InMemoryEventStore(), clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0.5))
        #expect(half.backoff(after: 1) == nil)
        #expect(half.backoff(after: 2) == .microseconds(50))
        #expect(half.backoff(after: 3) == .microseconds(100))
        #expect(half.backoff(after: 40) == .milliseconds(5))
        let none = CommandRunner(store: InMemoryEventStore(), clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0))
        #expect(none.backoff(after: 10) == .zero)
    }
}
