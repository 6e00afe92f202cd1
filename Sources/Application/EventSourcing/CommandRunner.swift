import Domain
import Foundation

/// A stream loaded for deciding: its state and the version the append will expect.
public struct Loaded<A: EventSourced>: Sendable where A.State: Sendable {
    public let stream: StreamName
    public let state: A.State
    public let version: Int64
    /// When the state is an append's still in flight (`PendingStates`): its last event and how it ends.
    let pending: (lastEvent: UUID, outcome: AppendOutcome)?

    init(stream: StreamName, state: A.State, version: Int64, pending: (lastEvent: UUID, outcome: AppendOutcome)? = nil) {
        self.stream = stream
        self.state = state
        self.version = version
        self.pending = pending
    }

    /// A stream this command creates (its id was made just now): nothing to read, it must not exist.
    static func new(_ stream: StreamName) -> Loaded<A> { Loaded(stream: stream, state: A.initial, version: 0) }

    /// The append that records `events` on this stream, expecting it unchanged since loading
    /// (and, for a state still in flight, ending with that append's last event); with `check`, it
    /// expects that even without events.
    func decision(_ events: [A.Event], check: Bool = false) -> Decision {
        let expected: ExpectedVersion =
            if let pending { .endingWith(pending.lastEvent, version: version) } else { version == 0 ? .noStream : .exactly(version) }
        return Decision(stream: stream, expected: expected, events: events.map(A.wrap), check: check)
    }

    /// The state after `events`, and the version the stream is at once they are appended here.
    func after(_ events: [A.Event]) -> (state: A.State, version: Int64) {
        (A.fold(events, from: state), version + Int64(events.count))
    }
}

/// New events for one stream, before metadata is stamped.
struct Decision: Sendable {
    let stream: StreamName
    let expected: ExpectedVersion
    let events: [DomainEvent]
    /// Whether the stream's version is checked even when there are no events (`Transaction.expectUnchanged`).
    var check = false
    /// Keeps the stream's state after these events in the state cache, once they are appended.
    var remember: (@Sendable () -> Void)? = nil
    /// Records the stream's state after these events as pending, while their append is in flight.
    var anticipate: (@Sendable (_ lastEvent: UUID, _ outcome: AppendOutcome) -> AggregateStream)? = nil
}

/// Loads streams, stamps metadata and appends atomically; `transact` (Transaction.swift) is the
/// "load, decide, append, retry" path every command takes.
public struct CommandRunner: Sendable {
    let store: any EventStore
    let clock: any WallClock
    let ids: any IDGenerator
    let random: any RandomSource
    let maxAttempts: Int
    let cache: StateCache
    /// The states appends in flight leave their streams in, for the commands that follow them.
    let pending = PendingStates()

    public init(
        store: any EventStore, clock: any WallClock, ids: any IDGenerator, random: any RandomSource, maxAttempts: Int = 64,
        cache: StateCache = StateCache()
    ) {
        self.store = store
        self.clock = clock
        self.ids = ids
        self.random = random
        self.maxAttempts = max(1, maxAttempts)
        self.cache = cache
    }

    /// How claim streams are named (the store's secret).
    public var claimNames: ClaimNames { store.claimNames }

    /// The current state and version of one aggregate's stream: the cached state, if any, and
    /// the events appended after it (a member with years of loans is not read from the start).
    func load<A: EventSourced>(_: A.Type, _ stream: StreamName) async throws -> Loaded<A> {
        let cached = cache.state(A.self, stream)
        return folded(A.self, stream, cached, try await store.read(stream, after: cached?.version ?? 0))
    }

    /// The stream's state for deciding a command: as an append still in flight leaves it, when
    /// there is one (the append then expects that append's last event: `Loaded.decision`), or as
    /// the log has it.
    func loadForDeciding<A: EventSourced>(_: A.Type, _ stream: StreamName) async throws -> Loaded<A> {
        if let (state, entry) = pending.state(A.self, stream) {
            return Loaded(stream: stream, state: state, version: entry.version, pending: (entry.lastEvent, entry.outcome))
        }
        return try await load(A.self, stream)
    }

    /// Two aggregates' states and versions, their streams read as of one moment in one store read.
    func load<A: EventSourced, B: EventSourced>(_: A.Type, _ a: StreamName, _: B.Type, _ b: StreamName) async throws -> (
        Loaded<A>, Loaded<B>
    ) {
        let (cachedA, cachedB) = (cache.state(A.self, a), cache.state(B.self, b))
        let tails = try await store.read([(a, cachedA?.version ?? 0), (b, cachedB?.version ?? 0)])
        return (folded(A.self, a, cachedA, tails[0]), folded(B.self, b, cachedB, tails[1]))
    }

    /// The cached state (if any) with the events recorded after it; kept in the cache when it moved on.
    private func folded<A: EventSourced>(
        _: A.Type, _ stream: StreamName, _ cached: (state: A.State, version: Int64)?, _ recorded: [RecordedEvent]
    ) -> Loaded<A> {
        // Nothing new since the cached state (most reads, and every ETag): no fold, no copy of the state.
        guard !recorded.isEmpty else { return Loaded(stream: stream, state: cached?.state ?? A.initial, version: cached?.version ?? 0) }
        let state = A.fold(recorded.lazy.compactMap { A.unwrap($0.event) }, from: cached?.state ?? A.initial)
        let version = recorded.last?.version ?? cached?.version ?? 0
        if !recorded.isEmpty { cache.keep(A.self, stream, state, version: version) }
        return Loaded(stream: stream, state: state, version: version)
    }

    /// Appends every non-empty decision in one atomic step, stamped with who, when and a shared
    /// correlation id (the request's id when a request is traced); a checked decision without events
    /// only checks its stream's version (and, decided on a state in flight, its last event). Nothing
    /// is appended (and nothing checked) when no decision has events: a command that changes
    /// nothing cannot be wrong (`transact` waits for the states in flight it decided on first).
    @discardableResult
    func append(_ decisions: [Decision], by principal: Principal) async throws -> Int64? {
        guard decisions.contains(where: { !$0.events.isEmpty }) else { return nil }
        let correlation = RequestTrace.current?.id ?? ids.next()
        let now = clock.now()
        let appends = decisions.filter { !$0.events.isEmpty || $0.check }.map { decision in
            StreamAppend(
                decision.stream, expected: decision.expected,
                events: decision.events.map {
                    PendingEvent(
                        $0, EventMetadata(eventID: ids.next(), recordedAt: now, actor: principal.actor, correlationID: correlation))
                })
        }
        let outcome = AppendOutcome()
        let anticipated = anticipate(decisions, appends, outcome)
        do {
            let position = try await store.append(appends, receipt: RetryScope.receipt)
            remember(decisions)
            pending.forget(outcome, at: anticipated)
            outcome.resolve(succeeded: true)
            return position
        } catch {
            pending.forget(outcome, at: anticipated)
            outcome.resolve(succeeded: false)
            throw Self.answer(to: error, by: principal)
        }
    }

    /// What the caller is told of a failed append: a member whose account closed while the command
    /// was under way (closing ends their sessions and erases their data, and the store refuses
    /// their data from then on) is no longer signed in, and for anyone else no longer exists.
    private static func answer(to error: any Error, by principal: Principal) -> any Error {
        guard let erased = error as? PersonalDataOfErasedMember else { return error }
        if case .user(let user, _, _) = principal, user == erased.member { return Unauthenticated() }
        return NotFound(.user, erased.member.description)
    }

    /// Records, for the commands that follow, the state each stream is in once `appends` is
    /// written, as `remember` will keep it (a stream decided on twice in one append is left out).
    private func anticipate(_ decisions: [Decision], _ appends: [StreamAppend], _ outcome: AppendOutcome) -> [AggregateStream] {
        Self.soleWrites(decisions).compactMap { decision in
            guard let last = appends.first(where: { $0.stream == decision.stream })?.events.last else { return nil }
            return decision.anticipate?(last.metadata.eventID, outcome)
        }
    }

    /// Keeps in the cache the state of each stream the append just wrote, so the next command
    /// reads no event this process wrote itself: the append met its expected version, so the
    /// stream is at that version plus its events, and they are these. A stream decided on twice in
    /// one append (each decision from the same loaded state) is left to be read back.
    private func remember(_ decisions: [Decision]) {
        for decision in Self.soleWrites(decisions) { decision.remember?() }
    }

    /// The decisions with events on a stream no other decision of the append writes to.
    private static func soleWrites(_ decisions: [Decision]) -> [Decision] {
        let written = decisions.filter { !$0.events.isEmpty }
        var counts: [StreamName: Int] = [:]
        for decision in written { counts[decision.stream, default: 0] += 1 }
        return written.filter { counts[$0.stream] == 1 }
    }
}
