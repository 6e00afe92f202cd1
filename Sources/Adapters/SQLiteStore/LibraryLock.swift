import Application
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The library's lock file, `<database>.lock` (empty; it stays): every process with the library
/// open holds a shared `flock` on it for as long as it has it open, and a restore takes it
/// exclusively, without waiting, so the database file is replaced only while no process has it
/// open. The kernel releases a dead process's lock, so a crash never leaves the library locked.
/// A file of its own, not the database: SQLite's own locks on the database are `fcntl` locks
/// (which `flock` does not meet on Linux, but may on other systems), and a restore renames a new
/// database into place, which a lock on the old file would not cover.
final class LibraryLock: Sendable {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// The lock file of the database at `database`.
    static func path(of database: String) -> String { database + ".lock" }

    /// A shared hold on the library; waits while a restore holds it exclusively. A lock file that
    /// cannot be opened (a folder this user may not write) is a `ConfigurationError`, as the folder is.
    static func shared(_ database: String) throws -> LibraryLock {
        let lock = try LibraryLock(fd: openFile(database))
        guard lock.take(LOCK_SH) else { throw ConfigurationError(.backup(.lockUnusable(path(of: database)))) }
        return lock
    }

    /// The exclusive hold a restore takes; nil at once when any process has the library open.
    static func exclusive(_ database: String) throws -> LibraryLock? {
        let lock = try LibraryLock(fd: openFile(database))
        return lock.take(LOCK_EX | LOCK_NB) ? lock : nil
    }

    private static func openFile(_ database: String) throws -> Int32 {
        let fd = open(path(of: database), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ConfigurationError(.backup(.lockUnusable(path(of: database)))) }
        return fd
    }

    private func take(_ operation: Int32) -> Bool {
        while flock(fd, operation) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// Lets go (closing the library); the descriptor closes with the value.
    func release() { _ = flock(fd, LOCK_UN) }

    deinit { close(fd) }
}
