import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The write-ahead log file of a library, held open to flush it to disk (`SyncedAnswers`). SQLite
/// names it: its path follows symbolic links to the database. The file stays the same while the
/// pool is open: SQLite deletes or replaces it only when the last connection to the database, of
/// any process, closes.
final class WALFile: Sendable {
    private let descriptor: Mutex<Int32?>

    /// Opens the WAL of the database `db` is connected to (in WAL mode, so the file exists).
    init(_ db: Database) throws {
        guard let handle = db.sqliteConnection, let name = sqlite3_db_filename(handle, "main"),
            let wal = sqlite3_filename_wal(name)
        else { throw DatabaseError(message: "SQLite names no write-ahead log for this library") }
        let path = String(cString: wal)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DatabaseError(message: "the write-ahead log \(path) could not be opened (errno \(errno))") }
        descriptor = Mutex(fd)
    }

    /// Flushes what was written to the file to disk (`fdatasync`).
    func flush() throws {
        try descriptor.withLock { fd in
            guard let fd else { throw UnconfirmedWrite(reason: "the library was closed") }
            guard fdatasync(fd) == 0 else {
                throw UnconfirmedWrite(
                    reason: "the disk did not confirm the log (errno \(errno)); restart the library once the disk is checked")
            }
        }
    }

    deinit { close() }

    /// Closes the file; a flush after this fails.
    func close() {
        descriptor.withLock { fd in
            if let open = fd { _ = Foundation.close(open) }
            fd = nil
        }
    }
}
