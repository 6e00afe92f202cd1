import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Paths that name no file a command can use, each said in one line before anything is written
/// (found by an outside walk: `--db /dev/null` made `/dev/null.lock`, a pipe "failed unexpectedly",
/// `--into ""` left a `.lock` where the command ran, and a login whose session could not be saved
/// was recorded in the log all the same).
@Suite("Paths that name no usable file, through the CLI")
struct CLIOddPathsTests {
    let db = TemporaryDatabase()

    @Test func aDeviceAPipeOrAFolderIsNoLibrary() async throws {
        let pipe = db.folder.appendingPathComponent("a-pipe").path
        try FileManager.default.createDirectory(at: db.folder, withIntermediateDirectories: true)
        #expect(mkfifo(pipe, 0o600) == 0)
        for path in ["/dev/null", pipe, db.folder.path] {
            let refused = try await shelfmark(["--db", path, "book", "list"], database: db.path)
            #expect(refused.status == 2, "\(path): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("Error: --db names \(path), which is not a library"), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: pipe + ".lock"), "nothing written beside a pipe")
        // Nor by a restore, which moved such a thing aside for the backup (found by an outside walk), or a migration.
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path).status == 0)
        let backup = db.folder.appendingPathComponent("kept.sqlite").path
        #expect(try await shelfmark(["backup", "--to", backup], database: db.path).status == 0)
        for path in [pipe, db.folder.appendingPathComponent("a-folder").path] {
            try? FileManager.default.createDirectory(
                atPath: db.folder.appendingPathComponent("a-folder").path, withIntermediateDirectories: true)
            for arguments in [["restore", "--from", backup], ["migrate"]] {
                let refused = try await shelfmark(["--db", path] + arguments, database: db.path)
                #expect(refused.status == 2 && refused.stderr.contains("which is not a library"), "\(arguments) \(path): \(refused.stderr)")
            }
        }
        var info = stat()
        #expect(lstat(pipe, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe is still a pipe")
    }

    /// Found by an outside walk: a pipe where a new library's chain key goes, or a folder where
    /// SQLite keeps its WAL, made `migrate` and `serve` fail as an internal error (exit 70).
    @Test func aPipeOrAFolderBesideTheLibraryIsSaidInOneLine() async throws {
        try FileManager.default.createDirectory(at: db.folder, withIntermediateDirectories: true)
        let key = db.path + ".key"
        #expect(mkfifo(key, 0o600) == 0)
        for arguments in [["migrate"], ["book", "list"], ["serve", "--port", "0"]] {
            let refused = try await shelfmark(arguments, database: db.path)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr == "Error: SHELFMARK_DB '\(key)' cannot be read or written\n", "\(arguments): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db.path), "no library made beside the pipe")
        try FileManager.default.removeItem(atPath: key)
        try FileManager.default.createDirectory(atPath: db.path + "-wal", withIntermediateDirectories: true)
        let wal = try await shelfmark(["migrate"], database: db.path)
        #expect(wal.status == 2 && wal.stderr.contains("'\(db.path)-wal' cannot be read or written"), "\(wal.stderr)")
        // Found by an outside walk: a link to nothing where the key goes made a library whose key was
        // kept nowhere; and a library whose key is gone was an internal error for `migrate` alone.
        try FileManager.default.removeItem(atPath: db.path + "-wal")
        try FileManager.default.createSymbolicLink(atPath: key, withDestinationPath: db.folder.appendingPathComponent("nothing").path)
        for arguments in [["migrate"], ["user", "list"]] {
            let dangling = try await shelfmark(arguments, database: db.path)
            #expect(dangling.status == 2 && dangling.stderr.contains("'\(key)' cannot be read or written"), "\(dangling.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db.path), "no library made beside the link")
        try FileManager.default.removeItem(atPath: key)
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path).status == 0)
        try FileManager.default.moveItem(atPath: key, toPath: key + ".away")
        let keyless = try await shelfmark(["migrate"], database: db.path)
        #expect(keyless.status == 2 && keyless.stderr.contains("which is missing"), "\(keyless.stderr)")
        // Beside a backup too (an outside walk): a pipe at its `.anchors` was an internal error for a
        // restore, and a backup was written beside a pipe at its `-wal`, or over a link to nothing.
        try FileManager.default.moveItem(atPath: key + ".away", toPath: key)
        let backup = db.folder.appendingPathComponent("kept.sqlite").path
        #expect(mkfifo(backup + "-wal", 0o600) == 0)
        let beside = try await shelfmark(["backup", "--to", backup], database: db.path)
        #expect(beside.status != 0 && beside.stderr.contains("'\(backup)-wal' cannot be read or written"), "\(beside.stderr)")
        try FileManager.default.removeItem(atPath: backup + "-wal")
        try FileManager.default.createSymbolicLink(
            atPath: backup + ".anchors", withDestinationPath: db.folder.appendingPathComponent("no").path)
        let overLink = try await shelfmark(["backup", "--to", backup], database: db.path)
        #expect(overLink.status != 0 && overLink.stderr.contains("'\(backup).anchors' cannot be read or written"), "\(overLink.stderr)")
        try FileManager.default.removeItem(atPath: backup + ".anchors")
        #expect(try await shelfmark(["backup", "--to", backup], database: db.path).status == 0)
        try? FileManager.default.removeItem(atPath: backup + ".anchors")
        #expect(mkfifo(backup + ".anchors", 0o600) == 0)
        let restore = try await shelfmark(["restore", "--from", backup], database: db.path)
        #expect(restore.status == 64 && restore.stderr.contains("'\(backup).anchors' cannot be read or written"), "\(restore.stderr)")
        let named = try await shelfmark(
            ["migrate"], database: db.folder.appendingPathComponent("other.sqlite").path,
            environment: ["SHELFMARK_CHAIN_KEY": db.folder.path])
        #expect(named.status == 2 && named.stderr.contains("SHELFMARK_CHAIN_KEY '\(db.folder.path)' cannot"), "\(named.stderr)")
    }

    /// Found by an outside walk: `audit anchor --to` a folder, a pipe or a link into no folder was
    /// an internal error (exit 70) advising to check the folder.
    @Test func anAnchorFileThatCannotTakeALineIsTheCallersInput() async throws {
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path).status == 0)
        let pipe = db.folder.appendingPathComponent("a-pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let link = db.folder.appendingPathComponent("a-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent-folder-\(UUID())/anchors")
        for target in [db.folder.path, pipe, link] {
            let refused = try await shelfmark(["audit", "anchor", "--to", target], database: db.path)
            #expect(
                refused.status == 64 && refused.stderr.contains("'\(target)' cannot be read or written"), "\(target): \(refused.stderr)")
        }
    }

    /// An empty file where a library should be (a truncated one) is not taken for a new library by
    /// the commands that read one (found by an outside walk: verify passed on it).
    @Test func anEmptyFileIsNoLibraryToVerifyExportOrBackUp() async throws {
        try FileManager.default.createDirectory(atPath: (db.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: db.path, contents: Data()))
        let verify = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(verify.status == 1 && verify.stdout.contains("FAIL database file"), "\(verify.stdout)\(verify.stderr)")
        for arguments in [["audit", "export"], ["backup", "--to", db.folder.appendingPathComponent("b.sqlite").path]] {
            let refused = try await shelfmark(arguments, database: db.path)
            #expect(refused.status == 2 && refused.stderr.contains("which is not a library"), "\(arguments): \(refused.stderr)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? NSNumber)?.intValue == 0, "left as it was")
    }

    /// Found by an outside walk: an emptied library with its chain key beside it became a new,
    /// empty library at the next `book list`, `migrate` or `audit anchor`.
    @Test func anEmptiedLibraryWithItsKeyIsNoNewLibrary() async throws {
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path).status == 0)
        let backup = db.folder.appendingPathComponent("kept.sqlite").path
        #expect(try await shelfmark(["backup", "--to", backup], database: db.path).status == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
        try Data().write(to: URL(fileURLWithPath: db.path))
        for arguments in [["book", "list"], ["migrate"], ["audit", "anchor"]] {
            let refused = try await shelfmark(arguments, database: db.path)
            #expect(refused.status == 2 && refused.stderr.contains("which is not a library"), "\(arguments): \(refused.stderr)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? NSNumber)?.intValue == 0, "left as it was")
        // What mends it, a restore, still may.
        let restored = try await shelfmark(["restore", "--from", backup], database: db.path)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try await shelfmark(["book", "list"], database: db.path).stdout.contains("Dune"))
    }

    @Test func aReplayIntoNoPathAndALoginWhoseSessionCannotBeSavedAreRefusedFirst() async throws {
        let signup = try await shelfmark(
            ["signup", "--email", "ada@example.org", "--country", "GB"], database: db.path, stdin: "Member-Pass1\n")
        #expect(signup.status == 0, "\(signup.stderr)")
        let events = try await shelfmark(["audit", "export"], database: db.path).stdout.split(separator: "\n").count
        let replay = try await shelfmark(["audit", "replay", "--into", ""], database: db.path)
        #expect(replay.status == 64 && replay.stderr == "Error: --into: is required\n", "\(replay.stderr)")
        let login = try await shelfmark(
            ["login", "--email", "ada@example.org"], database: db.path, stdin: "Member-Pass1\n",
            environment: ["XDG_CONFIG_HOME": "/dev/null"])
        #expect(
            login.status == 2 && login.stderr.hasPrefix("Error: XDG_CONFIG_HOME needs the folder /dev/null/shelfmark"), "\(login.stderr)")
        #expect(
            try await shelfmark(["audit", "export"], database: db.path).stdout.split(separator: "\n").count == events, "no login recorded")
    }
}
