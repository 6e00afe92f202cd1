import Foundation
import GRDB
import SQLiteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A library this user may read but not write (an auditor's copy): said in one line naming the
/// file and what to do, not "failed unexpectedly" (found by an outside walk).
@Suite("A library this user cannot write")
struct ReadOnlyLibraryTests {
    @Test func sqliteRefusingToWriteIsTheReadOnlyCase() {
        #expect(LibraryDatabase.isReadOnlyFile(DatabaseError(resultCode: .SQLITE_READONLY)))
        #expect(!LibraryDatabase.isReadOnlyFile(DatabaseError(resultCode: .SQLITE_CORRUPT)))
    }

    /// As another user than the file's owner, where the tests run as root and `runuser` is there
    /// (CI's machines); elsewhere only the case above is checked.
    @Test func anotherUserIsToldTheFileIsReadOnlyForThem() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return }
        let db = TemporaryDatabase()
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path).status == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
        // The folder and the lock are theirs to write; the library and its key are only theirs to read.
        for folder in [db.folder.path, (db.path as NSString).deletingLastPathComponent] {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        }
        for (suffix, mode) in [("", 0o644), (".key", 0o644), (".lock", 0o666)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: db.path + suffix)
        }
        let executable = try shelfmarkExecutable().path
        let run = try await offPool {
            try runToEnd(
                "/usr/sbin/runuser", ["-u", "nobody", "--", executable, "--db", db.path, "book", "list"],
                environment: ["HOME": "/tmp", "PATH": "/usr/bin:/bin"], input: nil)
        }
        let said = String(decoding: run.stderr, as: UTF8.self)
        guard run.status != 126, run.status != 127, !said.contains("Permission denied") else { return }  // the binary is not theirs to run
        #expect(run.status == 2, "\(said)")
        #expect(said.hasPrefix("Error: --db '\(db.path)' cannot be read or written"), "\(said)")
    }
}
