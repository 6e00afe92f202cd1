import Domain
import Foundation
import InMemory
import Synchronization
import Testing

@testable import Application

/// A millisecond for the other tasks: the suite runs beside a thousand others, and a loop of
/// bare yields would take the cooperative pool's two threads from them.
func pause() async { try? await Task.sleep(for: .milliseconds(1)) }

/// Commands that anticipate: the next command on a stream decides on the state an append still in
/// flight leaves it in, and is written after that append or not at all (`PendingStates`).

@Suite("anticipated appends", .timeLimit(.minutes(5)))
struct AnticipationTests {
    /// A store that holds every append until the test writes it (or fails it), one at a time, in
    /// the order the test says.
    final class HeldStore: EventStore {
        let inner: any EventStore
        init(_ inner: any EventStore = InMemoryEventStore()) { self.inner = inner }
        private let held = Mutex<[(appends: [StreamAppend], answer: CheckedContinuation<Int64, any Error>)]>([])

        func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
            try await withCheckedThrowingContinuation { answer in held.withLock { $0.append((appends, answer)) } }
        }
        func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
            try await inner.read(stream, after: version)
        }
        func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
            try await inner.readAll(after: position, limit: limit)
        }
        var claimNames: ClaimNames { inner.claimNames }

        /// The appends waiting, oldest first.
        var waiting: [[StreamAppend]] { held.withLock { $0.map(\.appends) } }

        /// Waits until `count` appends are held.
        func holding(_ count: Int) async {
            while waiting.count < count { await pause() }
        }

        /// Writes the oldest held append and answers it (`written`), or fails it as a conflict
        /// without writing it.
        func release(written: Bool = true) async {
            let (appends, answer) = held.withLock { $0.removeFirst() }
            guard written else {
                return answer.resume(throwing: AppendConflict(stream: appends[0].stream, expected: appends[0].expected, actual: -1))
            }
            do { answer.resume(returning: try await inner.append(appends)) } catch { answer.resume(throwing: error) }
        }

        /// Writes every append as it comes until `done` holds.
        func writeAll(until done: () -> Bool) async {
            while !done() {
                if waiting.isEmpty { await pause() } else { await release() }
            }
        }
    }

    /// How many times a command ran.
    final class Attempts: Sendable {
        private let value = Mutex(0)
        var count: Int {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// Which loans were lent (true) or refused (false), as their commands answer.
    final class Answers: Sendable {
        private let value = Mutex<[Int: Bool]>([:])
        var lent: [Int: Bool] { value.withLock { $0 } }
        func tell(_ loan: Int, lent: Bool) { value.withLock { $0[loan] = lent } }
    }

    let book = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)

    /// A runner on a store holding its appends, with the book already in the catalogue.
    func heldRunner(copies: Int) async throws -> (CommandRunner, HeldStore) {
        let store = HeldStore()
        let runner = CommandRunner(store: store, clock: ManualClock(), ids: SequentialIDs(), random: FixedRandom(0))
        try await store.inner.append([
            StreamAppend(
                .book(book), expected: .noStream,
                events: [
                    PendingEvent(
                        .book(.added(BookAdded(book: book, details: BookDetails(title: "Dune", authors: ["F"]), copies: copies))),
                        metadata())
                ])
        ])
        return (runner, store)
    }

    /// Lends a copy of the book on `loan`; counts the attempts.
    func lend(_ loan: Int, _ runner: CommandRunner, anticipating: Bool = true, attempts: Attempts) async throws {
        let loanID = LoanID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", loan))!)
        try await runner.transact(by: .cliOperator, anticipating: anticipating) { transaction in
            attempts.count += 1
            let loaded = try await transaction.load(BookAggregate.self, .book(book))
            try transaction.decide(.lend(loanID), on: loaded) { BookRefused(book, $0) }
        }
    }

    /// The book as the log has it.
    func written(_ store: HeldStore) async throws -> CataloguedBook {
        let events = try await store.inner.read(.book(book)).compactMap { BookAggregate.unwrap($0.event) }
        guard case .inCatalogue(let record) = BookAggregate.fold(events, from: .absent) else { throw BookRefused(book, .notInCatalogue) }
        return record
    }

    func onLoan(_ store: HeldStore) async throws -> Int { try await written(store).onLoan }

    /// Two lends of the book, each on its own task: the first held in flight, then the second
    /// (anticipating or not) decided and held behind it.
    func twoLends(copies: Int, secondAnticipates: Bool = true) async throws -> (
        runner: CommandRunner, store: HeldStore, first: Attempts, second: Attempts, p: Task<Void, any Error>, d: Task<Void, any Error>
    ) {
        let (runner, store) = try await heldRunner(copies: copies)
        let (first, second) = (Attempts(), Attempts())
        let p = Task { try await lend(1, runner, attempts: first) }
        await store.holding(1)
        let d = Task { try await lend(2, runner, anticipating: secondAnticipates, attempts: second) }
        await store.holding(2)
        return (runner, store, first, second, p, d)
    }

    @Test func aCommandDecidesOnAnAppendInFlightAndIsWrittenAfterIt() async throws {
        let (runner, store, first, second, p, d) = try await twoLends(copies: 2)
        // The second lend decided on the first one's state: it expects the stream to end with its event.
        let firstEvent = try #require(store.waiting[0][0].events.last).metadata.eventID
        #expect(store.waiting[1][0].expected == .endingWith(firstEvent, version: 2))
        await store.release()
        await store.release()
        _ = try await (p.value, d.value)
        #expect(first.count == 1)
        #expect(second.count == 1)
        #expect(try await onLoan(store) == 2)
        #expect(runner.pending.count == 0)
    }

    @Test func whenTheAppendInFlightFailsTheCommandDecidedOnItDecidesAgain() async throws {
        let (runner, store, first, second, p, d) = try await twoLends(copies: 2)
        await store.release(written: false)  // the first lend's append fails
        // The second lend's append reaches the store, which refuses it: the first lend's event is not there.
        await store.release()
        // Both run again, on the log as it is, one after the other's state.
        let done = Mutex(0)
        async let written: Void = store.writeAll { done.withLock { $0 } == 2 }
        try await p.value
        done.withLock { $0 += 1 }
        try await d.value
        done.withLock { $0 += 1 }
        await written
        #expect(first.count >= 2)
        #expect(second.count >= 2)
        #expect(try await onLoan(store) == 2)
        #expect(runner.pending.count == 0)
    }

    @Test(arguments: [true, false])
    func aRefusalDecidedOnAnAppendInFlightStandsOnlyOnceItIsWritten(firstWritten: Bool) async throws {
        let (runner, store) = try await heldRunner(copies: 1)
        let (first, second) = (Attempts(), Attempts())
        let answered = Answers()
        func lendAndTell(_ loan: Int, _ attempts: Attempts) -> Task<Void, Never> {
            Task {
                let lent = (try? await lend(loan, runner, attempts: attempts)) != nil
                answered.tell(loan, lent: lent)
            }
        }
        let p = lendAndTell(1, first)
        await store.holding(1)
        let d = lendAndTell(2, second)
        // The only copy is lent in flight: the second lend is refused, but not before that lend is answered.
        while second.count == 0 { await pause() }
        for _ in 0..<20 { await pause() }
        #expect(answered.lent.isEmpty)
        #expect(store.waiting.count == 1)
        await store.release(written: firstWritten)
        // Unwritten, the first lend did not happen: both decide again, on the log, and one lends the copy.
        await store.writeAll { answered.lent.count == 2 }
        _ = await (p.value, d.value)
        #expect(answered.lent.values.filter { $0 }.count == 1)
        if firstWritten { #expect(answered.lent == [1: true, 2: false]) }
        // Decided on the lend in flight, then on the log (which has the copy): so it waited.
        #expect(firstWritten ? second.count == 2 : second.count >= 3)
        #expect(try await onLoan(store) == 1)
    }

    @Test func aRefusalTheLogMakesTooIsAnsweredWithoutWaiting() async throws {
        let (runner, store) = try await heldRunner(copies: 1)
        let (first, second, third) = (Attempts(), Attempts(), Attempts())
        async let lent: Void = lend(1, runner, attempts: first)
        await store.holding(1)
        await store.release()
        try await lent
        // In flight: the copy comes back and goes out again. On the log, it is out all along.
        let loan = LoanID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        async let back: Void = runner.transact(by: .cliOperator, anticipating: true) { transaction in
            let loaded = try await transaction.load(BookAggregate.self, .book(book))
            try transaction.decide(.takeBack(loan), on: loaded) { BookRefused(book, $0) }
        }
        await store.holding(1)
        async let again: Void = lend(2, runner, attempts: second)
        await store.holding(2)
        let answered = Answers()
        let refused = Task {
            do { try await lend(3, runner, attempts: third) } catch is BookRefused { answered.tell(3, lent: false) }
        }
        for _ in 0..<2_000 where answered.lent.isEmpty { await pause() }
        #expect(answered.lent == [3: false])
        #expect(store.waiting.count == 2)
        await store.release()
        await store.release()
        _ = try await (back, again, refused.value)
        #expect(third.count == 2)  // decided on the states in flight, then on the log
        #expect(try await onLoan(store) == 1)
    }

    /// Sets the book's copies to `total`, anticipating.
    func setCopies(_ total: Int, _ runner: CommandRunner) async throws {
        try await runner.transact(by: .cliOperator, anticipating: true) { transaction in
            let loaded = try await transaction.load(BookAggregate.self, .book(book))
            try transaction.decide(.setCopies(total), on: loaded) { BookRefused(book, $0) }
        }
    }

    @Test func decidingNothingOnAnAppendInFlightStandsOnlyOnceItIsWritten() async throws {
        let (runner, store) = try await heldRunner(copies: 1)
        // A command that does not anticipate decides on the book as it is, then another writer
        // lends the copy: its append, in flight, is stale, and will fail.
        var stale = Transaction(runner: runner)
        let loaded = try await stale.load(BookAggregate.self, .book(book))
        let loan = LoanID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        let lent = PendingEvent(.book(.copyLent(CopyMovement(book: book, loan: loan, onLoan: 1))), metadata())
        try await store.inner.append([StreamAppend(.book(book), expected: .exactly(1), events: [lent])])
        try stale.decide(.setCopies(2), on: loaded) { BookRefused(book, $0) }
        async let failed = try? runner.append(stale.decisions, by: .cliOperator)
        await store.holding(1)
        // Two copies is what the stale append leaves: nothing to decide, but not before it is answered.
        let answered = Answers()
        let same = Task {
            try await setCopies(2, runner)
            answered.tell(2, lent: true)
        }
        for _ in 0..<50 where answered.lent.isEmpty { await pause() }
        #expect(answered.lent.isEmpty)
        await store.release()  // refused by the store: the copy was lent meanwhile
        #expect(await failed == nil)
        await store.holding(1)  // so the second command decides again, on the log, and adds the copy
        await store.release()
        try await same.value
        #expect(try await written(store).copies == 2)
    }

    @Test func aCommandThatDoesNotAnticipateDecidesOnTheLog() async throws {
        let (_, store, _, second, p, d) = try await twoLends(copies: 2, secondAnticipates: false)
        #expect(store.waiting[1][0].expected == .exactly(1))
        await store.release()
        await store.release()  // a conflict: the first lend was written
        await store.holding(1)
        await store.release()
        _ = try await (p.value, d.value)
        #expect(second.count == 2)
        #expect(try await onLoan(store) == 2)
    }
}
