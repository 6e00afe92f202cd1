import GRDB
import Synchronization

/// The read-only connections the short reads of the read models and of the log run on (`read`),
/// on the calling thread, in one read transaction each. A read takes an idle connection (or opens
/// one: a read never waits for another) and gives it back. GRDB's pool would find a reader with a
/// semaphore and two barrier hops, and check its schema cache with a `PRAGMA schema_version` in a
/// transaction of its own, twice the file locking of the read itself: a tenth of a small request's
/// time, for a cache no hand-written statement uses. Issue 20.
final class ReadConnections: Sendable {
    private let path: String
    private let configuration: Configuration
    /// Idle connections, at most `keep`; nil once closed.
    private let idle = Mutex<[DatabaseQueue]?>([])
    private let keep: Int
    /// Whether the database changed since a read: memoised answers (`read(_:_:_:)`) hold until it does.
    let changes: DatabaseChanges

    /// Connections to the database at `path` (opened by a `DatabasePool`, in WAL mode), keeping at
    /// most `keep` idle ones.
    init(path: String, busyMode: Database.BusyMode, keep: Int = 8) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = busyMode
        self.path = path
        self.configuration = configuration
        self.keep = keep
        changes = DatabaseChanges(databasePath: path)
    }

    /// `block`'s answer for `key`: kept in `memo` from an earlier read while no connection of any
    /// process has committed since, else read now (and kept). The database's stamp is taken before
    /// the read, so a kept answer is never older than the stamp it is kept under.
    func read<Key, Value>(_ memo: ReadMemo<Key, Value>, _ key: Key, _ block: (Database) throws -> Value) throws -> Value {
        guard let stamp = changes.stamp() else { return try read(block) }
        if let known = memo.value(key, at: stamp) { return known }
        let value = try read(block)
        memo.keep(value, for: key, at: stamp)
        return value
    }

    /// Runs `block` in a read transaction begun and ended with statements compiled once per
    /// connection (GRDB's own `read` compiles `BEGIN` and `COMMIT` again at every read).
    func read<T>(_ block: (Database) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        return try connection.unsafeRead { db in
            try db.cached(sql: "BEGIN DEFERRED TRANSACTION")
            let value: T
            do {
                value = try block(db)
            } catch {
                try? db.cached(sql: "ROLLBACK TRANSACTION")
                throw error
            }
            try db.cached(sql: "COMMIT TRANSACTION")
            return value
        }
    }

    /// Closes the idle connections; one in use closes when it is given back.
    func close() throws {
        changes.close()
        let connections = idle.withLock { idle in
            defer { idle = nil }
            return idle ?? []
        }
        for connection in connections { try connection.close() }
    }

    private func take() throws -> DatabaseQueue {
        let (found, closed) = idle.withLock { idle -> (DatabaseQueue?, Bool) in
            guard idle != nil else { return (nil, true) }
            return (idle!.popLast(), false)
        }
        if closed { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed") }
        return try found ?? DatabaseQueue(path: path, configuration: configuration)
    }

    private func giveBack(_ connection: DatabaseQueue) {
        let kept = idle.withLock { idle -> Bool in
            guard idle != nil, idle!.count < keep else { return false }
            idle!.append(connection)
            return true
        }
        if !kept { try? connection.close() }
    }
}
