import Application
import Foundation
import GRDB

/// How hard SQLite works to keep a commit through a power cut (`PRAGMA synchronous`).
public enum Durability: String, Sendable, CaseIterable {
    /// fsync on every commit: a committed event survives a power cut. The default.
    case full
    /// WAL's NORMAL: survives a crash of the process, may lose the last commits on a power cut.
    case normal
    /// No fsync at all: for throwaway databases.
    case off
}

/// The library's SQLite file: the event store and its read models, opened and migrated.
public final class LibraryDatabase: Sendable {
    public let eventStore: SQLiteEventStore
    public let catalogue: SQLiteCatalogue
    public let accounts: SQLiteAccounts
    public let loans: SQLiteLoans
    let pool: DatabasePool
    /// A connection of its own for long scans (verify, export, replay, time travel): the pool's
    /// readers serve short reads on the calling thread (`readHere`), which must never wait for a
    /// reader that an async scan holds until a cooperative thread is free to release it.
    let scans: DatabaseQueue
    let projections: Projections

    /// Opens (creating if needed) the database at `path`, migrates it, and brings the read
    /// models up to the head of the log from their stored positions.
    public init(path: String, durability: Durability = .full) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets NORMAL when it switches the writer to WAL, after prepareDatabase: set ours on the
        // writer (a pool keeps one writer connection for its whole life).
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue.uppercased())")
        }
        try Schema.migrator.migrate(pool)
        scans = try DatabaseQueue(path: path, configuration: configuration)
        projections = Projections(all: [CatalogueProjection(), AccountsProjection(), LoansProjection(), BookmarksProjection()])
        try pool.write { [projections] db in try projections.catchUp(db) }
        eventStore = SQLiteEventStore(pool: pool, projections: projections)
        catalogue = SQLiteCatalogue(pool: pool)
        accounts = SQLiteAccounts(pool: pool)
        loans = SQLiteLoans(pool: pool)
    }

    /// The durability the writer connection runs with, read back from SQLite.
    public func writerDurability() async throws -> Durability? {
        let level = try await pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        return [0: .off, 1: .normal, 2: .full][level ?? -1]
    }

    /// Checkpoints the WAL and closes every connection.
    public func close() throws {
        try scans.close()
        try pool.close()
    }
}

extension LibraryDatabase: HealthCheck {
    public func headPosition() async throws -> Int64 {
        try pool.readHere { db in try EventRows.head(db) }
    }
}

extension LibraryDatabase: ReadModelRebuilder {
    /// Rebuilds inside one write transaction: appends wait meanwhile (none is lost) and readers
    /// see the old read models until the new ones commit at once.
    public func rebuild(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        try await pool.write { [projections] db in try projections.rebuild(db, progress: progress) }
    }
}
