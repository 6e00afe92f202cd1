import Application
import GRDB
import LogChain

/// The event store on SQLite. Concurrent appends are group-committed: one writer takes every
/// append waiting and writes them in one transaction, a conflicting or failing append failing
/// alone, and the inline projections update in the same transaction. The batches' fsyncs run
/// beside the writer (`SyncedAnswers`): an append is answered once its events are on disk.
public final class SQLiteEventStore: EventStore, Sendable {
    private typealias Job = PendingAppend

    private let pool: DatabasePool
    private let reads: ReadConnections
    private let projections: Projections
    private let chain: ChainHasher
    private let queue = AppendQueue()
    /// Claim streams are named with a secret kept outside the log (`PersonalKeys.claimSecret`).
    public let claimNames: ClaimNames
    /// Seals personal data on append and opens it on reading, with the members' keys.
    private let cipher: any PersonalCipher
    /// Appends, events, conflicts and batch sizes, counted as each batch commits.
    private let metrics: StoreMetrics
    /// The tails known to hold no event, while nothing was committed since (`ReadMemo`).
    private let emptyTails = ReadMemo<TailKey, Bool>(capacity: 4_096)
    /// With synchronous=FULL, what answers committed batches once their WAL is on disk; nil otherwise.
    private let flushes: SyncedAnswers?

    init(
        pool: DatabasePool, reads: ReadConnections, projections: Projections, chain: ChainHasher, claimNames: ClaimNames,
        cipher: any PersonalCipher, metrics: StoreMetrics, flushes: SyncedAnswers?
    ) {
        self.flushes = flushes
        self.pool = pool
        self.reads = reads
        self.projections = projections
        self.chain = chain
        self.claimNames = claimNames
        self.cipher = cipher
        self.metrics = metrics
    }

    @discardableResult
    public func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
        // SQLite's text binding stops at a NUL: the queue refuses such a stream name.
        try await queue.append(appends, receipt: receipt) { pool.asyncWriteWithoutTransaction { db in self.drain(db) } }
    }

    public func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
        try await durable(tails([(stream, version)]))[0]
    }

    /// Every tail in one read transaction: a read costs a transaction and a reader connection.
    public func read(_ tails: [(stream: StreamName, after: Int64)]) async throws -> [[RecordedEvent]] {
        try await durable(self.tails(tails))
    }

    /// `found`, once its newest event is on disk (`SyncedAnswers.awaitDurable`): a command
    /// decides nothing, not even to change nothing, on an event a power cut could take back.
    private func durable(_ found: [[RecordedEvent]]) async throws -> [[RecordedEvent]] {
        // Each list is in log order (a stream's versions, or positions): its last event is its newest.
        if let flushes, let newest = found.compactMap(\.last?.position).max() { try await flushes.awaitDurable(newest) }
        return found
    }

    /// The tails, read in one transaction unless each is known empty: a command's state cache
    /// asks for what follows the version it holds, which is nothing until the stream moves on,
    /// and `emptyTails` remembers that until the next commit of any connection.
    private func tails(_ tails: [(stream: StreamName, after: Int64)]) throws -> [[RecordedEvent]] {
        let stamp = reads.changes.stamp()
        if let stamp, tails.allSatisfy({ emptyTails.value(TailKey($0), at: stamp) == true }) { return tails.map { _ in [] } }
        let found = try reads.read { db in try tails.map { try EventRows.stream($0.stream, after: $0.after, cipher, db) } }
        if let stamp {
            for (tail, events) in zip(tails, found) where events.isEmpty { emptyTails.keep(true, for: TailKey(tail), at: stamp) }
        }
        return found
    }

    /// A stream and the version a reader holds of it.
    private struct TailKey: Hashable, Sendable {
        let stream: StreamName
        let after: Int64

        init(_ tail: (stream: StreamName, after: Int64)) {
            stream = tail.stream
            after = tail.after
        }
    }

    public func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
        try await durable([reads.read { db in try EventRows.after(position, limit: limit, cipher, db) }])[0]
    }

    /// Commits batches until no append is waiting, up to 16 per visit to the writer connection;
    /// then, with appends still waiting, it queues another visit behind the other writes (search
    /// cache, rebuilds), so a steady load never starves them. It runs on the writer's own queue,
    /// reached straight from `append`: no task in between, one thread switch there and one back.
    /// With `flushes` (synchronous=FULL), the batches commit without an fsync and are answered once
    /// `flushes` has the WAL on disk, while the writer goes on to the next batch.
    private func drain(_ db: Database) {
        if flushes != nil { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
        // Back to FULL for the pool's other writes (request receipts kept, logs copied in, rebuilds,
        // the search cache, the login throttle), before any of them runs on this queue. (Should
        // SQLite refuse, they would commit at NORMAL until the next drain: it cannot refuse a
        // pragma on an open connection outside a transaction.)
        defer { if flushes != nil { try? db.execute(sql: "PRAGMA synchronous = FULL") } }
        for _ in 0..<16 {
            let batch = queue.takeBatch()
            if batch.isEmpty { return }
            if let failure = flushes?.failure {
                for job in batch { job.answer(.failure(failure)) }
                continue
            }
            let results = Self.commit(batch, projections, chain, claimNames, cipher, db, metrics)
            if let flushes {
                flushes.answerWhenDurable(batch, results)
            } else {
                for (job, result) in zip(batch, results) { job.answer(result) }
            }
        }
        pool.asyncWriteWithoutTransaction { db in self.drain(db) }
    }

    /// Waits until every append committed so far is answered (before the database closes).
    func settle() { flushes?.settle() }

    /// Makes what readers have seen of the log durable before it leaves the process (`SyncedAnswers`).
    func flushNow() async throws { try await flushes?.awaitDurable() }

    /// One transaction for the batch; the answer of every append. An append whose expected
    /// version is not met fails alone, before it writes anything. Appends are written without a
    /// savepoint each: a savepoint makes SQLite's full-text index flush a segment, a dozen pages
    /// per event. If an append fails once it has begun writing, the batch is rolled back and
    /// written again with one savepoint per append, so that append fails alone. A batch that
    /// cannot be written (the database is closing) fails its appends.
    private static func commit(
        _ batch: [Job], _ projections: Projections, _ chain: ChainHasher, _ names: ClaimNames, _ cipher: any PersonalCipher,
        _ db: Database, _ metrics: StoreMetrics
    ) -> [Result<Int64, any Error>] {
        do {
            let results: [Result<Int64, any Error>]
            do {
                results = try commit(batch, savepoints: false, projections, chain, names, cipher, db)
            } catch {
                results = try commit(batch, savepoints: true, projections, chain, names, cipher, db)
            }
            // An erasure leaves no copy of the deleted key's page in the WAL: checkpoint it all into the
            // file and truncate it (best effort: a reader still on an older snapshot keeps it for now).
            let erased = zip(batch, results).contains { job, result in
                (try? result.get()) != nil && job.appends.contains { $0.events.contains { $0.encoded.erases != nil } }
            }
            if erased { _ = try? db.checkpoint(.truncate) }
            metrics.record(batch, results)
            return results
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }

    /// Writes the batch in one transaction. Without savepoints, an append that fails after it
    /// began writing throws out of the transaction (which rolls back); with them, it fails alone.
    private static func commit(
        _ batch: [Job], savepoints: Bool, _ projections: Projections, _ chain: ChainHasher, _ names: ClaimNames,
        _ cipher: any PersonalCipher, _ db: Database
    ) throws -> [Result<Int64, any Error>] {
        var results: [Result<Int64, any Error>] = []
        try db.inTransaction(.immediate) {
            // The chain's tip is read once per batch and carried from append to append.
            var tip = try SQLiteHashChain.tip(db)
            results = []
            results.reserveCapacity(batch.count)
            // Without savepoints, the batch's events are all written before any is projected: once
            // the full-text index has changes pending in a transaction, every later statement that
            // may abort (the events' insert, with its guard trigger) makes it flush them as a new
            // segment, a dozen pages (bench/PROFILE.md, change 29).
            var recorded: [RecordedEvent] = []
            for job in batch {
                do {
                    if savepoints {
                        // The tip moves only once the append is projected and released: undone, it must not.
                        tip = try inSavepoint(db) {
                            var own: [RecordedEvent] = []
                            let next = try write(job, chain, names, cipher, after: tip, recording: &own, db)
                            for event in own { try projections.apply(event, db) }
                            return next
                        }
                    } else {
                        tip = try write(job, chain, names, cipher, after: tip, recording: &recorded, db)
                    }
                    results.append(.success(tip.position))
                } catch let conflict as AppendConflict {
                    results.append(.failure(conflict))  // thrown before the append wrote anything
                } catch let refused as RequestAlreadyRecorded {
                    results.append(.failure(refused))  // as is this one
                } catch {
                    guard savepoints else { throw error }
                    results.append(.failure(error))
                }
            }
            for event in recorded { try projections.apply(event, db) }
            try projections.markCaughtUp(db, head: tip.position)
            return .commit
        }
        return results
    }

    /// Runs `body` in a savepoint, undone if it throws, and returns its value once the savepoint is
    /// released (its statements compiled once, not per append).
    private static func inSavepoint<Value>(_ db: Database, _ body: () throws -> Value) throws -> Value {
        try db.cached(sql: "SAVEPOINT append")
        do {
            let value = try body()
            try db.cached(sql: "RELEASE SAVEPOINT append")
            return value
        } catch {
            try db.cached(sql: "ROLLBACK TO SAVEPOINT append")
            try db.cached(sql: "RELEASE SAVEPOINT append")
            throw error
        }
    }

    /// Checks every expectation and the request's receipt, then writes every event after `tip`
    /// (adding each to `recorded`, for the projections) and the receipt; returns the new tip.
    /// Throws before writing on a conflict, or when another attempt holds the receipt's key.
    private static func write(
        _ job: Job, _ chain: ChainHasher, _ names: ClaimNames, _ cipher: any PersonalCipher, after tip: (position: Int64, hash: String),
        recording recorded: inout [RecordedEvent], _ db: Database
    ) throws -> (position: Int64, hash: String) {
        let appends = job.appends
        var versions: [StreamName: Int64] = [:]
        for (stream, expected, _) in appends {
            let actual = try versions[stream] ?? EventRows.version(of: stream, db)
            guard expected.isMet(by: actual),
                try expected.lastEventID.map({ try EventRows.event($0, isAt: actual, of: stream, db) }) ?? true
            else { throw AppendConflict(stream: stream, expected: expected, actual: actual) }
            versions[stream] = actual
        }
        if let receipt = job.receipt { try SQLiteRequestReceipts.check(receipt, db) }
        var (head, previous) = tip
        for (stream, _, events) in appends {
            for event in events {
                let version = versions[stream, default: 0] + 1
                versions[stream] = version
                head += 1
                previous = try EventRows.insert(
                    event, stream: stream, version: version, position: head, previous: previous, chain: chain, names: names,
                    cipher: cipher, db)
                recorded.append(
                    RecordedEvent(position: head, stream: stream, version: version, event: event.event, metadata: event.metadata))
            }
        }
        if let receipt = job.receipt { try SQLiteRequestReceipts.record(receipt, db) }
        return (head, previous)
    }
}
