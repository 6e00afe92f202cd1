import Application
import Foundation
import LogChain
import Logging
import PostgresNIO

/// The event store on PostgreSQL, shared by every server of a library. An append takes the
/// writer's advisory lock inside its transaction, so positions are given and committed in
/// order across all servers (a reader never sees a later position before an earlier one), reads
/// the chain's tip, checks every expected version, and writes, the inline projections updating
/// the read models in the same transaction. Appends waiting in one server are
/// group-committed: one transaction for all of them, a conflicting or failing append failing alone.
public final class PostgresEventStore: EventStore, Sendable {
    private typealias Job = PendingAppend

    private let client: PostgresPool
    private let projections: PostgresProjections
    private let chain: ChainHasher
    private let cipher: any PersonalCipher
    private let logger: Logger
    private let queue = AppendQueue()
    /// Claim streams are named with a secret kept outside the log.
    public let claimNames: ClaimNames
    /// Appends, events, conflicts and batch sizes, counted as each batch commits.
    private let metrics: StoreMetrics

    init(
        client: PostgresPool, projections: PostgresProjections, chain: ChainHasher, claimNames: ClaimNames, cipher: any PersonalCipher,
        logger: Logger, metrics: StoreMetrics
    ) {
        self.metrics = metrics
        self.client = client
        self.projections = projections
        self.chain = chain
        self.claimNames = claimNames
        self.cipher = cipher
        self.logger = logger
    }

    @discardableResult
    public func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64 {
        // PostgreSQL's text holds no NUL: the queue refuses such a stream name.
        try await queue.append(appends, receipt: receipt) { Task { await self.drain() } }
    }

    public func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent] {
        try await client.session(logger) { [cipher] session in try await PostgresEventRows.stream(stream, after: version, cipher, session) }
    }

    public func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent] {
        try await client.session(logger) { [cipher] session in try await PostgresEventRows.after(position, limit: limit, cipher, session) }
    }

    /// Commits batches until no append is waiting.
    private func drain() async {
        while true {
            let batch = queue.takeBatch()
            if batch.isEmpty { return }
            do {
                let results = try await client.session(logger) { session in try await self.commit(batch, session) }
                metrics.record(batch, results)
                for (job, result) in zip(batch, results) { job.answer(result) }
            } catch {
                for job in batch { job.answer(.failure(error)) }
            }
        }
    }

    /// One transaction for the batch; an append whose expected version is not met fails alone,
    /// before it writes anything. If an append fails once it has begun writing, the batch is
    /// written again with one savepoint per append, so that append fails alone.
    private func commit(_ batch: [Job], _ session: SQLSession) async throws -> [Result<Int64, any Error>] {
        do {
            return try await commit(batch, savepoints: false, session)
        } catch {
            return try await commit(batch, savepoints: true, session)
        }
    }

    private func commit(_ batch: [Job], savepoints: Bool, _ session: SQLSession) async throws -> [Result<Int64, any Error>] {
        try await session.transaction {
            try await session.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
            var tip = try await PostgresEventRows.tip(session)
            var results: [Result<Int64, any Error>] = []
            for job in batch {
                do {
                    if savepoints {
                        tip = try await session.savepoint { try await self.write(job, after: tip, session) }
                    } else {
                        tip = try await write(job, after: tip, session)
                    }
                    results.append(.success(tip.position))
                } catch let conflict as AppendConflict {
                    results.append(.failure(conflict))  // thrown before the append wrote anything
                } catch let recorded as RequestAlreadyRecorded {
                    results.append(.failure(recorded))  // as is this one
                } catch {
                    guard savepoints else { throw error }
                    results.append(.failure(error))
                }
            }
            try await projections.markCaughtUp(tip.position, session)
            return results
        }
    }

    /// Checks every expectation and the receipt, then writes every event after `tip`, and the
    /// receipt; returns the new tip. Throws before writing on a conflict or a receipt held.
    private func write(_ job: Job, after tip: (position: Int64, hash: String), _ session: SQLSession) async throws -> (
        position: Int64, hash: String
    ) {
        var versions: [StreamName: Int64] = [:]
        for (stream, expected, _) in job.appends {
            let actual: Int64
            if let known = versions[stream] { actual = known } else { actual = try await PostgresEventRows.version(of: stream, session) }
            var met = expected.isMet(by: actual)
            if met, let last = expected.lastEventID { met = try await PostgresEventRows.event(last, isAt: actual, of: stream, session) }
            guard met else { throw AppendConflict(stream: stream, expected: expected, actual: actual) }
            versions[stream] = actual
        }
        if let receipt = job.receipt { try await PostgresRequestReceipts.check(receipt, session) }
        var (head, previous) = tip
        for (stream, _, events) in job.appends {
            for event in events {
                let version = versions[stream, default: 0] + 1
                versions[stream] = version
                head += 1
                previous = try await PostgresEventRows.insert(
                    event, stream: stream, version: version, position: head, previous: previous, chain: chain, names: claimNames,
                    cipher: cipher, session)
                try await projections.apply(
                    RecordedEvent(position: head, stream: stream, version: version, event: event.event, metadata: event.metadata), session)
            }
        }
        if let receipt = job.receipt { try await PostgresRequestReceipts.record(receipt, session) }
        return (head, previous)
    }
}
