import Application
import CoreMetrics
import Foundation
import LogChain
import Logging
import PostgresNIO

/// A library's PostgreSQL database: the connection pool (run for as long as the library is open),
/// the schema created or upgraded, the chain key checked, and the event store over them. Several
/// servers may open the same database at once.
public final class PostgresLibrary: Sendable {
    public let eventStore: PostgresEventStore
    /// Where the database is, without its password.
    public let address: String
    /// The schema's migrations this open applied (none when it was up to date).
    public let migrated: [String]
    let client: PostgresPool
    let logger: Logger
    let projections: PostgresProjections
    /// How events are chained: keyed with the chain key from its first position on.
    let chain: ChainHasher
    /// Seals and opens members' personal data, makes their keys, names claim streams.
    let cipher: any PersonalCipher
    /// What the event store and the search cache count (`StoreMetrics`, as on SQLite).
    let metrics: StoreMetrics
    private let running: Task<Void, Never>

    /// Opens the database at `address`, creating or upgrading its schema. With `keyFile`, events
    /// are chained with the key in that file, as on SQLite (every server of the library needs a
    /// copy of it). `cipher` does the cryptography of members' personal data and claim names;
    /// `metrics` receives the appends, events, conflicts, group-commit batch sizes and search
    /// cache look-ups.
    public static func open(
        _ address: PostgresAddress, keyFile: String? = nil, cipher: any PersonalCipher, maximumConnections: Int = 20,
        logger: Logger = Logger(label: "shelfmark.postgres"), metrics factory: any MetricsFactory = NOOPMetricsHandler.instance
    ) async throws -> PostgresLibrary {
        do {
            try await address.probe(logger: logger)
        } catch {
            throw PostgresUnavailable(address: address.description, cause: String(reflecting: error))
        }
        var configuration = address.configuration
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresPool(PostgresClient(configuration: configuration, backgroundLogger: logger))
        let running = await started(client)
        do {
            let projections = PostgresProjections(all: PostgresReadModels.projections, cipher: cipher)
            let (chain, secret, migrated) = try await client.session(logger) { session in
                let migrated = try await PostgresSchema.migrate(session)
                return try await session.transaction {
                    try await session.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
                    let chain = try await PostgresChainKey.open(keyFile: keyFile, session)
                    try await projections.catchUp(session)
                    return (chain, try await PostgresPersonalKeys.claimSecret(chain, cipher, session), migrated)
                }
            }
            let metrics = StoreMetrics(factory)
            let store = PostgresEventStore(
                client: client, projections: projections, chain: chain, claimNames: ClaimNames(secret: secret, cipher: cipher),
                cipher: cipher, logger: logger, metrics: metrics)
            return PostgresLibrary(
                client: client, running: running, logger: logger, projections: projections, chain: chain, cipher: cipher, eventStore: store,
                address: address.description, migrated: migrated, metrics: metrics)
        } catch {
            running.cancel()
            await running.value
            if let failure = error as? PSQLError {
                throw PostgresUnavailable(address: address.description, cause: String(reflecting: failure))
            }
            throw error
        }
    }

    /// Runs the client's pool in a task of its own, once the task has begun running it (a
    /// connection leased before that is served, with a warning in the log).
    private static func started(_ client: PostgresPool) async -> Task<Void, Never> {
        let (begun, begin) = AsyncStream<Void>.makeStream()
        let task = Task {
            begin.finish()
            await client.run()
        }
        for await _ in begun {}
        return task
    }

    private init(
        client: PostgresPool, running: Task<Void, Never>, logger: Logger, projections: PostgresProjections, chain: ChainHasher,
        cipher: any PersonalCipher, eventStore: PostgresEventStore, address: String, migrated: [String], metrics: StoreMetrics
    ) {
        self.metrics = metrics
        self.address = address
        self.migrated = migrated
        self.client = client
        self.projections = projections
        self.chain = chain
        self.cipher = cipher
        self.running = running
        self.logger = logger
        self.eventStore = eventStore
    }

    /// The receipts of requests sent with an `Idempotency-Key` (safe retries).
    public var requestReceipts: PostgresRequestReceipts { PostgresRequestReceipts(client: client, logger: logger) }

    /// Closes every connection once the appends and reads under way are done.
    public func close() async {
        running.cancel()
        await running.value
    }
}

extension PostgresLibrary: HealthCheck {
    public func headPosition() async throws -> Int64 {
        try await client.session(logger) { session in try await PostgresEventRows.head(session) }
    }
}

/// The chain key as the database records it (table `chain_key`; see `RecordedChainKey`).
enum PostgresChainKey {
    static func fetch(_ session: SQLSession) async throws -> RecordedChainKey? {
        try await session.rows("SELECT keyed_from, key_id FROM chain_key WHERE id = 1", as: (Int64, String).self).first.map {
            RecordedChainKey(keyedFrom: $0.0, keyID: $0.1)
        }
    }

    /// The chain for this database, in the caller's transaction under the writer's lock.
    static func open(keyFile: String?, _ session: SQLSession) async throws -> ChainHasher {
        let opened = try RecordedChainKey.open(
            keyFile: keyFile, recorded: try await fetch(session), head: try await PostgresEventRows.head(session))
        if let key = opened.toRecord {
            try await session.run("INSERT INTO chain_key (id, keyed_from, key_id) VALUES (1, \(key.keyedFrom), \(key.id))")
        }
        return opened.chain
    }
}

extension PostgresLibrary: ProjectionProgress {
    public func projectedPosition() async throws -> Int64 {
        try await client.session(logger) { [projections] session in
            guard let lowest = try await projections.positions(session).min() else { return try await PostgresEventRows.head(session) }
            return lowest
        }
    }
}

extension PostgresLibrary: ReadModelRebuilder {
    /// Rebuilds inside one transaction under the writer's lock: appends on every server wait
    /// meanwhile (none is lost), and readers see the old read models until the new ones commit.
    public func rebuild(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        try await client.session(logger) { [projections] session in
            try await session.transaction {
                try await session.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
                return try await projections.rebuild(session, progress: progress)
            }
        }
    }
}

/// The database could not be opened: no server answered, or it refused the user, password or
/// database, or the schema could not be made. Nothing was written.
public struct PostgresUnavailable: Error, Sendable, CustomStringConvertible {
    /// Where, without the password.
    public let address: String
    /// PostgreSQL's own account of it, for the log.
    public let cause: String
    public var description: String { "PostgreSQL at \(address): \(cause)" }
}
