import Domain
import Foundation
import InMemory
import Testing

@testable import Application

/// `Transaction.expectUnchanged`: a decision that rests on a stream it does not write (a hold
/// refused or placed because of the book's shelf) is decided again when that stream changed.
@Suite("transact: streams read and expected unchanged")
struct ExpectUnchangedTests {
    let shelf = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)
    let other = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b2")!)

    func add(_ id: BookID, _ runner: CommandRunner) async throws {
        try await runner.transact(BookAggregate.self, .book(id), by: .cliOperator) {
            try BookAggregate.decide(.add(id, BookDraft(title: "Dune", authors: ["F"]), copies: 1), $0)
        }
    }

    @Test func aStreamReadButNotWrittenThatChangedMeanwhileRunsTheCommandAgain() async throws {
        let store = InMemoryEventStore()
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0))
        try await add(shelf, runner)
        var attempts = 0
        var copiesSeen: [Int] = []
        try await runner.transact(by: .cliOperator) { transaction in
            attempts += 1
            let read = try await transaction.load(BookAggregate.self, .book(shelf))
            transaction.expectUnchanged(read)
            if case .inCatalogue(let book) = read.state { copiesSeen.append(book.copies) }
            if attempts == 1 {  // another command changes the stream this one only read
                try await runner.transact(BookAggregate.self, .book(shelf), by: .cliOperator) {
                    try BookAggregate.decide(.addCopies(1), $0)
                }
            }
            let written = try await transaction.load(BookAggregate.self, .book(other))
            try transaction.decide(.add(other, BookDraft(title: "Emma", authors: ["J"]), copies: 1), on: written) { BookRefused(other, $0) }
        }
        #expect(attempts == 2 && copiesSeen == [1, 2])
        #expect(try await store.read(.book(shelf)).count == 2, "a stream only read gets no event")
        #expect(try await store.read(.book(other)).count == 1)
    }

    @Test func aCommandThatDecidesNothingChecksNothing() async throws {
        let store = InMemoryEventStore()
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0))
        try await add(shelf, runner)
        var attempts = 0
        try await runner.transact(by: .cliOperator) { transaction in
            attempts += 1
            transaction.expectUnchanged(try await transaction.load(BookAggregate.self, .book(shelf)))
            try await add(shelf, runner)  // a repeat: no event, so nothing to check against
        }
        let events = try await store.readAll(after: 0, limit: 10)
        #expect(attempts == 1 && events.count == 1)
    }
}
