import Application
import CoreMetrics
import Foundation
import GRDB
import LogChain
import Synchronization

/// How hard SQLite works to keep a commit through a power cut (`PRAGMA synchronous`).
public enum Durability: String, Sendable, CaseIterable {
    /// An append is answered once its events are on disk (fsync): it survives a power cut. The default.
    case full
    /// WAL's NORMAL: survives a crash of the process, may lose the last commits on a power cut.
    case normal
    /// No fsync at all: for throwaway databases.
    case off
}

/// The library's SQLite file: the event store and its read models, opened and migrated.
public final class LibraryDatabase: Sendable {
    /// Whether `error`, thrown while opening, says the file is no database SQLite can read: not a
    /// database, damaged, or not openable as one (a folder, a device).
    public static func isUnreadableFile(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_CANTOPEN].contains(error.resultCode)
    }

    /// Whether opening failed because this user may not write the file (SQLite writes beside a
    /// library, its WAL, even to read it).
    public static func isReadOnlyFile(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
    }

    public let eventStore: SQLiteEventStore
    public let catalogue: SQLiteCatalogue
    public let accounts: SQLiteAccounts
    public let loans: SQLiteLoans
    public let holds: SQLiteHolds
    public let appKeys: SQLiteAppKeys
    public let catalogueNumbers: SQLiteCatalogueNumbers
    let pool: DatabasePool
    /// The short reads' connections (`ReadConnections`), on the calling thread.
    let reads: ReadConnections
    /// A connection of its own for long scans (verify, export, replay, time travel): the short reads
    /// run on the calling thread, and must never wait for a connection that an async scan holds
    /// until a cooperative thread is free to release it.
    let scans: DatabaseQueue
    let projections: Projections
    /// How events are chained: keyed with the chain key from its first position on (see `ChainKey`).
    let chain: ChainHasher
    /// Held shared while the library is open, so a restore never replaces it under this process.
    let lock: LibraryLock
    /// The write-ahead log, flushed to answer appends under `.full` (`SyncedAnswers`); nil otherwise.
    let wal: WALFile?
    /// Set by the first `close()`: a second one does nothing (GRDB's pool crashes when closed twice).
    private let closed = Mutex(false)
    /// Seals and opens members' personal data, makes their keys, names claim streams.
    let cipher: any PersonalCipher
    /// What the event store and the search cache count (`StoreMetrics`).
    let metrics: StoreMetrics
    /// The event the read models could not catch up past as the library opened (the log was
    /// changed outside Shelfmark; they stay at the last position they had); nil when up to date.
    public let unreadable: UnreadableEvent?
    /// Whether the read models had to be rebuilt from the whole log as the library opened: they
    /// did not fit the positions stored for them (changed outside Shelfmark; found by an outside
    /// test, where every command, `audit verify` and `projections rebuild` included, then failed).
    public let readModelsRebuilt: Bool

    /// Opens (creating if needed) the database at `path`, migrates it, and brings the read
    /// models up to the head of the log from their stored positions. With `keyFile`, the events
    /// appended are chained with the key in that file (created on first use to key from the next
    /// position); a log with keyed events refuses to open without its key file, or with another.
    /// `cipher` does the cryptography of members' personal data and of claim stream names.
    ///
    /// `projecting: false` is for measuring the bare log (bench/): appends then write events
    /// only, and the read models stay where they were until the next open that projects.
    /// `metrics` receives the appends, events, conflicts, group-commit batch sizes and search
    /// cache look-ups (nothing is kept unless it is given).
    public convenience init(
        path: String, durability: Durability = .full, keyFile: String? = nil, cipher: any PersonalCipher, projecting: Bool = true,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) throws {
        try self.init(
            path: path, durability: durability, keyFile: keyFile, cipher: cipher, projecting: projecting, metrics: metrics, flush: nil)
    }

    /// Opens the library as above; under `.full`, `flush` (when given) stands for the flush of its
    /// write-ahead log that answers appends (`SyncedAnswers`: tests give one that waits or fails).
    init(
        path: String, durability: Durability, keyFile: String?, cipher: any PersonalCipher, projecting: Bool,
        metrics: any MetricsFactory, flush: SyncedAnswers.Flush?
    ) throws {
        self.cipher = cipher
        self.metrics = StoreMetrics(metrics)
        lock = try LibraryLock.shared(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        reads = ReadConnections(path: path, busyMode: configuration.busyMode)
        // GRDB sets NORMAL when it switches the writer to WAL, after prepareDatabase: set ours on the
        // writer (a pool keeps one writer connection for its whole life).
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue.uppercased())")
            // Deleted rows (a closed member's key, their read-model rows) are overwritten, not left in free space.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        try Schema.migrator.migrate(pool)
        chain = try pool.write { db in try ChainKeyRecord.open(keyFile: keyFile, db) }
        let claimSecret = try pool.write { [chain] db in try PersonalKeys.claimSecret(chain, cipher, db) }
        scans = try DatabaseQueue(path: path, configuration: configuration)
        projections = Projections(
            all: projecting
                ? [
                    CatalogueProjection(), AccountsProjection(), LoansProjection(), BookmarksProjection(), HoldsProjection(),
                    AppKeysProjection(), CatalogueNumbersProjection(),
                ] : [],
            cipher: cipher)
        (unreadable, readModelsRebuilt) = try Self.bringUpToDate(projections, pool, cipher)
        let wal = durability == .full && flush == nil ? try pool.writeWithoutTransaction { db in try WALFile(db) } : nil
        self.wal = wal
        let flushes = durability == .full ? SyncedAnswers(flush: flush ?? { try wal?.flush() }) : nil
        eventStore = SQLiteEventStore(
            pool: pool, reads: reads, projections: projections, chain: chain, claimNames: ClaimNames(secret: claimSecret, cipher: cipher),
            cipher: cipher, metrics: self.metrics, flushes: flushes)
        catalogue = SQLiteCatalogue(reads: reads)
        accounts = SQLiteAccounts(reads: reads)
        loans = SQLiteLoans(reads: reads)
        holds = SQLiteHolds(reads: reads)
        appKeys = SQLiteAppKeys(reads: reads)
        catalogueNumbers = SQLiteCatalogueNumbers(reads: reads)
    }

    /// Creates or upgrades the library at `path` (as every open does) and closes it; the
    /// migrations this applied, none when it was up to date.
    public static func migrate(path: String, keyFile: String?, cipher: any PersonalCipher) throws -> [String] {
        let before: Set<String> =
            FileManager.default.fileExists(atPath: path)
            ? try DatabaseQueue(path: path).read { db in try Schema.migrator.appliedIdentifiers(db) } : []
        let database = try LibraryDatabase(path: path, keyFile: keyFile, cipher: cipher)
        defer { try? database.close() }
        if let unreadable = database.unreadable { throw unreadable }
        let after = try database.pool.read { db in try Schema.migrator.appliedIdentifiers(db) }
        return Schema.migrator.migrations.filter { after.contains($0) && !before.contains($0) }
    }

    /// The database file's path.
    public var path: String { pool.path }

    /// The receipts of requests sent with an `Idempotency-Key` (safe retries).
    public var requestReceipts: SQLiteRequestReceipts { SQLiteRequestReceipts(pool: pool, reads: reads) }

    /// The durability the writer connection runs with, read back from SQLite.
    public func writerDurability() async throws -> Durability? {
        let level = try await pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        return [0: .off, 1: .normal, 2: .full][level ?? -1]
    }

    /// Copies the WAL into the database file, empties it, and closes every connection: a plain copy
    /// of the file after a clean stop holds every event. (SQLite checkpoints when the last
    /// connection closes, but GRDB closes the pool's writer before its read-only readers, and
    /// those cannot checkpoint: without this the WAL stays, with the newest events in it.)
    /// Every step is tried even when one before it failed (the first failure is thrown): so the
    /// read connections always close, and with them the memos' answers (`DatabaseChanges`). A
    /// second call does nothing.
    public func close() throws {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        var failure: (any Error)?
        func attempt(_ step: () throws -> Void) {
            do { try step() } catch { failure = failure ?? error }
        }
        attempt { try scans.close() }
        attempt { try reads.close() }
        attempt { try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) } }
        var poolClosed = false
        attempt {
            try pool.close()
            poolClosed = true
        }
        // Every batch the writer committed is answered before the log's file is let go, and the
        // library's lock only after that.
        eventStore.settle()
        wal?.close()
        if poolClosed { lock.release() }
        if let failure { throw failure }
    }
}

extension LibraryDatabase: HealthCheck {
    public func headPosition() async throws -> Int64 {
        try reads.read { db in try EventRows.head(db) }
    }
}

extension LibraryDatabase: ProjectionProgress {
    public func projectedPosition() async throws -> Int64 {
        try reads.read { [projections] db in
            try projections.all.map { try projections.position(of: $0, db) }.min() ?? EventRows.head(db)
        }
    }
}

extension LibraryDatabase: ReadModelRebuilder {
    /// Rebuilds inside one write transaction: appends wait meanwhile (none is lost) and readers
    /// see the old read models until the new ones commit at once.
    public func rebuild(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        try await rebuild(timings: nil, progress: progress)
    }

    /// `rebuild`, with each projection's time summed into `timings` when given.
    public func rebuild(timings: ProjectionTimings?, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        try await pool.write { [projections, pool, cipher = projections.cipher] db in
            try projections.rebuild(db, reader: Self.logReader(pool, cipher), timings: timings, progress: progress)
        }
    }

    /// Reads the log on one of the pool's readers, beside the writer that applies it: the events
    /// are committed, and a rebuild or catch-up writes only the read models.
    /// Catches the read models up from their stored positions. Catching up only writes read
    /// models, so a constraint it breaks (a row it adds is there already) says they do not fit
    /// those positions: the log being the source of truth, they are emptied and replayed whole,
    /// in a transaction of their own. An unreadable event stops either, and is returned.
    private static func bringUpToDate(_ projections: Projections, _ pool: DatabasePool, _ cipher: any PersonalCipher) throws -> (
        UnreadableEvent?, rebuilt: Bool
    ) {
        do {
            try pool.write { db in try projections.catchUp(db, reader: Self.logReader(pool, cipher)) }
            return (nil, false)
        } catch let error as UnreadableEvent {
            return (error, false)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            do {
                _ = try pool.write { db in try projections.rebuild(db, reader: Self.logReader(pool, cipher)) { _, _ in } }
                return (nil, true)
            } catch let error as UnreadableEvent {
                return (error, true)
            }
        }
    }

    static func logReader(_ pool: DatabasePool, _ cipher: any PersonalCipher) -> Projections.LogReader {
        { after, limit in try pool.read { db in try EventRows.after(after, limit: limit, cipher, db) } }
    }
}
