import Domain
import Foundation

/// One attempt of a command: the streams it loaded and the events it decided for them, appended
/// together at the versions they were read at when the attempt ends.
public struct Transaction: Sendable {
    let runner: CommandRunner
    private(set) var decisions: [Decision] = []
    /// Whether streams load as appends still in flight leave them (`CommandRunner.loadForDeciding`).
    let anticipates: Bool
    /// The streams an anticipating attempt read from the log (none in flight), by aggregate.
    private(set) var readFromLog: [AggregateStream: any Sendable] = [:]
    /// Streams taken as already read (a re-run on the log of an attempt that anticipated).
    private let taken: [AggregateStream: any Sendable]

    init(runner: CommandRunner, anticipating: Bool = false, taking taken: [AggregateStream: any Sendable] = [:]) {
        self.runner = runner
        anticipates = anticipating
        self.taken = taken
    }

    /// The appends still in flight whose states this attempt decided on, by stream.
    private(set) var anticipated: [(stream: StreamName, lastEvent: UUID, outcome: AppendOutcome)] = []

    /// One aggregate's stream as it is now; when the attempt anticipates, as an append still in
    /// flight leaves it.
    mutating func load<A: EventSourced>(_ type: A.Type, _ stream: StreamName) async throws -> Loaded<A> {
        let key = AggregateStream(A.self, stream)
        if let loaded = taken[key] as? Loaded<A> { return loaded }
        guard anticipates else { return try await runner.load(type, stream) }
        let loaded = try await runner.loadForDeciding(type, stream)
        if let pending = loaded.pending {
            anticipated.append((stream, pending.lastEvent, pending.outcome))
        } else {
            readFromLog[key] = loaded
        }
        return loaded
    }

    /// Records `events` for `loaded`'s stream; while they are in flight, the next command on the
    /// stream decides on the state after them, and once appended, that state is cached. On a state
    /// still in flight, the append checks the stream even without events: deciding nothing there
    /// rests on that state too.
    mutating func record<A: EventSourced>(_ loaded: Loaded<A>, _ events: [A.Event]) {
        var decision = loaded.decision(events, check: loaded.pending != nil)
        if !events.isEmpty {
            let (cache, pending) = (runner.cache, runner.pending)
            let (state, version) = loaded.after(events)
            decision.remember = { cache.keep(A.self, loaded.stream, state, version: version) }
            decision.anticipate = { last, outcome in
                pending.keep(A.self, loaded.stream, .init(state: state, version: version, lastEvent: last, outcome: outcome))
            }
        }
        decisions.append(decision)
    }

    /// Whether the appends in flight this attempt decided on were written, once they are answered.
    /// With `appending`, the attempt's own append is about to check the streams it records on or
    /// checks (it expects their last event: `Loaded.decision`), so only the others are waited
    /// for; a refusal, or an attempt that appends nothing, waits for them all.
    func anticipatedAppendsSucceeded(appending: Bool) async -> Bool {
        for (stream, last, outcome) in anticipated {
            let checked = decisions.contains { $0.stream == stream && $0.expected.lastEventID == last && (!$0.events.isEmpty || $0.check) }
            if appending, checked { continue }
            guard await outcome.succeeded() else { return false }
        }
        return true
    }

    /// Records that the decision rests on `loaded` as it was read, though it writes nothing there:
    /// the append then expects that stream unchanged too, so a command that changed it meanwhile
    /// (a return putting a copy back on a shelf a hold was refused for) makes this attempt run again.
    mutating func expectUnchanged<A: EventSourced>(_ loaded: Loaded<A>) {
        decisions.append(loaded.decision([], check: true))
    }

    /// `expectUnchanged(loaded)` unless the attempt already records events on that stream (which
    /// expects it unchanged as well).
    mutating func expectUnchangedUnlessRecorded<A: EventSourced>(_ loaded: Loaded<A>) {
        if !decisions.contains(where: { $0.stream == loaded.stream }) { expectUnchanged(loaded) }
    }

    /// Decides `command` on `loaded`, records the events and returns them; a rejection is thrown
    /// as `refusal` makes it (the use case's error, naming what was refused).
    @discardableResult
    mutating func decide<A: EventSourced, Refusal: Error>(
        _ command: A.Command, on loaded: Loaded<A>, else refusal: (A.Rejection) -> Refusal
    ) throws(Refusal) -> [A.Event] {
        let events: [A.Event]
        do { events = try A.decide(command, loaded.state) } catch { throw refusal(error) }
        record(loaded, events)
        return events
    }

    /// Decides `command` on `loaded` and records the events; a rejection is thrown as it is.
    @discardableResult
    mutating func decide<A: EventSourced>(_ command: A.Command, on loaded: Loaded<A>) throws(A.Rejection) -> [A.Event] {
        try decide(command, on: loaded) { $0 }
    }

    /// Whether any event was decided.
    var changes: Bool { decisions.contains { !$0.events.isEmpty } }
}

extension CommandRunner {
    /// Load, decide, append: runs `body` (which loads streams and decides events on them), then
    /// appends every decision in one atomic step at the versions read. When another command
    /// changed one of those streams meanwhile, runs it all again after a jittered pause, at
    /// most `maxAttempts` times: every round of a race has a winner. An attempt that `anticipates`
    /// decides on the states appends still in flight leave their streams in (`PendingStates`),
    /// for commands whose every rule rests on the streams they load, none on a read model; when
    /// such an attempt refuses, `body` runs once more on the log, and a refusal there is the
    /// answer at once (so `body` may run twice per attempt).
    public func transact<T>(
        by principal: Principal, anticipating: Bool = false, _ body: (inout Transaction) async throws -> T
    ) async throws -> T {
        for attempt in 1...maxAttempts {
            var transaction = Transaction(runner: self, anticipating: anticipating)
            let result: T
            do {
                result = try await body(&transaction)
            } catch {
                // A refusal decided on an append still in flight stands at once when the log as it
                // is (on disk) refuses too, and that refusal is the answer; otherwise only once that
                // append is written.
                if !transaction.anticipated.isEmpty {
                    // What it read from the log is taken as read: only the states in flight are read again.
                    var onTheLog = Transaction(runner: self, taking: transaction.readFromLog)
                    _ = try await body(&onTheLog)
                }
                guard await transaction.anticipatedAppendsSucceeded(appending: false) else { continue }
                throw error
            }
            do {
                // Before appending: an append that fails after this one was written could not take it back.
                guard await transaction.anticipatedAppendsSucceeded(appending: transaction.changes) else { continue }
                try await append(transaction.decisions, by: principal)
                return result
            } catch is AppendConflict {
                // The appends it followed may be failing (answered after the flush): not chained to them again.
                _ = await transaction.anticipatedAppendsSucceeded(appending: false)
                if attempt == maxAttempts { break }
                await pause(after: attempt)
            }
        }
        throw TooMuchContention(attempts: maxAttempts)
    }

    /// Loads one stream, decides on its state and appends, as `transact` does.
    public func transact<A: EventSourced>(
        _ type: A.Type, _ stream: StreamName, by principal: Principal, _ decide: (A.State) throws -> [A.Event]
    ) async throws {
        try await transact(by: principal) { transaction in
            let loaded = try await transaction.load(type, stream)
            transaction.record(loaded, try decide(loaded.state))
        }
    }

    /// Backs off before attempt `attempt + 1` (`backoff`), or only yields after the first.
    func pause(after attempt: Int) async {
        guard let pause = backoff(after: attempt) else { return await Task.yield() }
        try? await Task.sleep(for: pause)
    }

    /// How long to wait before attempt `attempt + 1`: nil after the first (a yield is enough),
    /// then a random share of a ceiling of 50 µs doubled per attempt, at most 10 ms, so racing
    /// writers stop colliding in step.
    func backoff(after attempt: Int) -> Duration? {
        guard attempt > 1 else { return nil }
        let ceiling = min(0.010, 0.000_050 * Double(1 << min(attempt - 1, 20)))
        return .seconds(ceiling * random.unit())
    }
}
