import Application
import Foundation
import GRDB

/// A fold of events into read-model tables.
protocol SQLiteProjection: Sendable {
    /// Stable name, the key of its stored position.
    var name: String { get }
    /// Removes every row of the read model, before a replay.
    func reset(_ db: Database) throws
    /// Applies one event to the read model.
    func apply(_ event: RecordedEvent, _ db: Database) throws
    /// A fresh fold for a catch-up's batches (`ProjectionFold`), or nil when the projection
    /// applies every event as it comes.
    func makeFold() -> (any ProjectionFold)?
}

/// The projections kept up to date inline with appends, each with its position stored in the
/// same transaction as its rows, so a crash never applies an event twice or skips one.
struct Projections: Sendable {
    let all: [any SQLiteProjection]
    /// Opens the personal data of the events they fold.
    let cipher: any PersonalCipher

    func apply(_ event: RecordedEvent, _ db: Database) throws {
        for projection in all { try projection.apply(event, db) }
    }

    /// Records that every projection has applied the whole log, up to `head` when the caller
    /// knows it (the writer does: its batch's last position), in one statement.
    func markCaughtUp(_ db: Database, head known: Int64? = nil) throws {
        guard !all.isEmpty else { return }
        let head = try known ?? EventRows.head(db)
        let rows = Array(repeating: "(?, ?)", count: all.count).joined(separator: ", ")
        try db.cached(
            sql: """
                INSERT INTO projection_positions (name, position) VALUES \(rows)
                ON CONFLICT (name) DO UPDATE SET position = excluded.position
                """,
            arguments: StatementArguments(all.flatMap { [$0.name, head] as [any DatabaseValueConvertible] }))
    }

    func position(of projection: any SQLiteProjection, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT position FROM projection_positions WHERE name = ?"), arguments: [projection.name]) ?? 0
    }

    func store(_ position: Int64, for projection: any SQLiteProjection, _ db: Database) throws {
        try db.cached(
            sql: """
                INSERT INTO projection_positions (name, position) VALUES (?, ?)
                ON CONFLICT (name) DO UPDATE SET position = excluded.position
                """,
            arguments: [projection.name, position])
    }

    /// Brings every projection from its stored position to the head of the log, reading each
    /// event once for all of them. At start-up this reads nothing when projections are current:
    /// the log is not replayed. With a `reader` (another connection), the next batch of the log is
    /// read and decoded on another thread while this one is applied.
    func catchUp(
        _ db: Database, batch: Int = 10_000, reader: LogReader? = nil, timings: ProjectionTimings? = nil,
        progress: (Int64, Int64) -> Void = { _, _ in }
    ) throws {
        let head = try EventRows.head(db)
        var positions = try all.map { try self.position(of: $0, db) }
        var position = positions.min() ?? head
        let cipher = self.cipher
        // The read models' pages, changed all through one long transaction, stay in memory rather
        // than spill to the WAL and be read back (bench/PROFILE.md, change 17).
        let cacheSize = position < head ? try Int.fetchOne(db, sql: "PRAGMA cache_size") : nil
        if cacheSize != nil { try db.execute(sql: "PRAGMA cache_size = \(Self.catchUpCacheSize)") }
        defer { if let cacheSize { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") } }
        func prefetch(after: Int64) -> Prefetch {
            if let reader { return Prefetch { try reader(after, batch) } }
            return Prefetch(Result { try EventRows.after(after, limit: batch, cipher, db) })
        }
        var next = position < head ? prefetch(after: position) : nil
        let folds = all.map { $0.makeFold() }
        func measured<T>(_ index: Int, _ work: () throws -> T) throws -> T {
            guard let timings else { return try work() }
            return try timings.time(index, of: all, work)
        }
        func flushFolds() throws {
            for (index, fold) in folds.enumerated() { if let fold { try measured(index) { try fold.flush(db) } } }
        }
        while position < head, let fetched = next {
            let events = try fetched.events()
            position = events.last?.position ?? head
            next = position < head ? prefetch(after: position) : nil
            for event in events {
                for (index, projection) in all.enumerated() where positions[index] < event.position {
                    if let fold = folds[index] {
                        switch try measured(index, { fold.take(event) }) {
                        case .held, .ignored: continue
                        case .applied: try flushFolds()
                        }
                    }
                    try measured(index) { try projection.apply(event, db) }
                }
            }
            try flushFolds()
            for (index, projection) in all.enumerated() where positions[index] < position {
                positions[index] = position
                try store(position, for: projection, db)
            }
            progress(position, head)
        }
    }

    /// The writer's page cache while projections catch up, in SQLite's units (negative: KiB).
    static let catchUpCacheSize = -16_384

    /// Reads the events after a position, at most `limit`, on a connection of its own.
    typealias LogReader = @Sendable (_ after: Int64, _ limit: Int) throws -> [RecordedEvent]

    /// A batch of the log being read on another thread (or already read).
    final class Prefetch: @unchecked Sendable {
        private var result: Result<[RecordedEvent], any Error>?
        private let done = DispatchSemaphore(value: 0)

        init(_ result: Result<[RecordedEvent], any Error>) {
            self.result = result
            done.signal()
        }

        init(_ read: @escaping @Sendable () throws -> [RecordedEvent]) {
            DispatchQueue.global().async {
                self.result = Result { try read() }
                self.done.signal()
            }
        }

        /// Waits for the batch; the semaphore orders the write of `result` before this read.
        func events() throws -> [RecordedEvent] {
            done.wait()
            return try result!.get()
        }
    }

    /// Empties every read model and replays the whole log into it, in the caller's transaction.
    func rebuild(
        _ db: Database, batch: Int = 10_000, reader: LogReader? = nil, timings: ProjectionTimings? = nil,
        progress: (Int64, Int64) -> Void
    ) throws -> Int64 {
        for projection in all {
            try projection.reset(db)
            try store(0, for: projection, db)
        }
        try catchUp(db, batch: batch, reader: reader, timings: timings, progress: progress)
        return try EventRows.head(db)
    }
}

/// The time each projection spends applying events, summed over a replay (bench/ measures what
/// each read model costs per event with it).
public final class ProjectionTimings: @unchecked Sendable {
    /// Each projection's name and its total time, in the order they apply.
    public private(set) var spent: [(name: String, time: Duration)] = []

    public init() {}

    /// Runs `work`, the work of the projection at `index` of `all`, and adds its time to that projection's.
    func time<T>(_ index: Int, of all: [any SQLiteProjection], _ work: () throws -> T) rethrows -> T {
        if spent.isEmpty { spent = all.map { ($0.name, .zero) } }
        let start = ContinuousClock.now
        defer { spent[index].time += ContinuousClock.now - start }
        return try work()
    }
}
