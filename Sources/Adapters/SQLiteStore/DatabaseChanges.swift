import GRDB
import GRDBSQLite
import Synchronization

/// Whether any connection, of this process or another (the CLI writes to the same file), has
/// committed since an earlier moment. Read from the wal-index header SQLite keeps at the start of
/// its shared memory (sqlite.org/walformat.html, "the WAL-index header"): two copies of 48 bytes
/// that every commit rewrites (its change counter, frame count, salts and checksums), the second
/// copy first, after the commit's frames are written and synced. The copies are read as SQLite's
/// own readers read them: when they differ (a commit half-way through writing them) or the header
/// is not initialised, there is no stamp, and nothing may be taken as unchanged.
///
/// The header is read through a read-only connection of its own, from the memory its SQLite
/// already maps (the VFS's `xShmMap`, region 0): no descriptor of ours on the `-shm` file, whose
/// closing would drop SQLite's POSIX locks on it, and the file SQLite chose, symbolic links and
/// all. Two loads of 48 bytes, against a read transaction for asking the database. Issue 20.
final class DatabaseChanges: Sendable {
    /// The header as read at one moment: equal stamps mean no commit in between.
    struct Stamp: Equatable, Sendable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64, e: UInt64, f: UInt64
    }

    /// The watching connection and the header it maps (valid while the connection is open).
    private struct Watch: @unchecked Sendable {
        let connection: DatabaseQueue
        let header: UnsafeRawPointer
    }

    private enum State {
        case unopened, open(Watch), unavailable, closed
    }

    private let path: String
    private let state = Mutex<State>(.unopened)

    /// The changes of the database at `databasePath` (watched from the first stamp on).
    init(databasePath: String) {
        path = databasePath
    }

    /// The header now, or nil: closed, not in WAL mode, or a commit is rewriting it.
    func stamp() -> Stamp? {
        state.withLock { state -> Stamp? in
            if case .unopened = state { state = Self.watch(path).map(State.open) ?? .unavailable }
            guard case .open(let watch) = state else { return nil }
            return Self.header(watch.header)
        }
    }

    /// Stops answering: every later `stamp()` is nil, and the watching connection is closed.
    func close() {
        state.withLock { state in
            if case .open(let watch) = state { try? watch.connection.close() }
            state = .closed
        }
    }

    private static let headerSize = 48
    /// SQLite's wal-index region size (`WALINDEX_PGSZ`): the size its VFS maps the shared memory by.
    private static let regionSize: Int32 = 32_768

    /// A read-only connection that has read once (so its SQLite maps the wal-index) and the start of that mapping.
    private static func watch(_ path: String) -> Watch? {
        var configuration = Configuration()
        configuration.readonly = true
        guard let connection = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        let header = try? connection.inDatabase { db -> UnsafeRawPointer? in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal", let handle = db.sqliteConnection else { return nil }
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
            var file: UnsafeMutablePointer<sqlite3_file>?
            guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file,
                let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2, let map = methods.pointee.xShmMap
            else { return nil }
            var region: UnsafeMutableRawPointer?
            guard map(file, 0, regionSize, 0, &region) == SQLITE_OK, let region else { return nil }
            return UnsafeRawPointer(region)
        }
        guard let header = header ?? nil else {
            try? connection.close()
            return nil
        }
        return Watch(connection: connection, header: header)
    }

    /// Both copies, the first then the second (the writer writes them the other way round).
    private static func header(_ memory: UnsafeRawPointer) -> Stamp? {
        withUnsafeTemporaryAllocation(byteCount: 2 * headerSize, alignment: 8) { buffer -> Stamp? in
            let copy = buffer.baseAddress!
            copy.copyMemory(from: memory, byteCount: headerSize)
            atomicMemoryFence(ordering: .sequentiallyConsistent)
            (copy + headerSize).copyMemory(from: memory + headerSize, byteCount: headerSize)
            let first = UnsafeRawBufferPointer(rebasing: buffer[0..<headerSize])
            let second = UnsafeRawBufferPointer(rebasing: buffer[headerSize..<2 * headerSize])
            // `isInit` (offset 12) is 1 once the header is valid; both copies equal: not half-written.
            guard first[12] == 1, first.elementsEqual(second) else { return nil }
            func word(_ index: Int) -> UInt64 { first.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
            return Stamp(a: word(0), b: word(1), c: word(2), d: word(3), e: word(4), f: word(5))
        }
    }
}

/// Answers read once and kept while the database has not changed (`DatabaseChanges`): every
/// commit, by any connection of any process, forgets them all at the next look-up. What is kept
/// weighs at most `capacity` (`weight`: a guess of each answer's bytes, or a count), so callers
/// who ask for many different pages cannot make the memo hold the catalogue many times over.
final class ReadMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Kept: ~Copyable {
        var stamp: DatabaseChanges.Stamp?
        var values: [Key: Value] = [:]
        var weight = 0
    }

    private let kept = Mutex(Kept())
    private let capacity: Int
    private let weight: @Sendable (Value) -> Int

    init(capacity: Int = 1_024, weight: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.capacity = capacity
        self.weight = weight
    }

    /// The answer kept for `key` when the database is still as it was at `stamp` (at another
    /// stamp, everything kept is forgotten).
    func value(_ key: Key, at stamp: DatabaseChanges.Stamp) -> Value? {
        kept.withLock { kept in
            guard kept.stamp == stamp else {
                kept = Kept(stamp: stamp)
                return nil
            }
            return kept.values[key]
        }
    }

    /// Keeps `value`, read after `stamp` was taken, for as long as the database stays at `stamp`.
    func keep(_ value: Value, for key: Key, at stamp: DatabaseChanges.Stamp) {
        let heavy = weight(value)
        guard heavy <= capacity else { return }
        kept.withLock { kept in
            if kept.stamp != stamp || kept.weight + heavy > capacity { kept = Kept(stamp: stamp) }
            if kept.values.updateValue(value, forKey: key) == nil { kept.weight += heavy }
        }
    }
}
