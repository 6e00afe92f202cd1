import Application
import Composition
import Domain
import Foundation
import GRDB
import Synchronization
import Testing

@testable import LogChain

/// `shelfmark backup` and `restore` through the real binary on real SQLite files (issue 21).
@Suite("backup and restore, through the CLI")
struct BackupCLITests {
    final class Writers: Sendable {
        let stop = Mutex(false)
        let acknowledged = Mutex<[BookID]>([])
    }

    /// The stream names in a library file, read raw.
    func streams(in path: String) throws -> Set<String> {
        let raw = try DatabaseQueue(path: path)
        defer { try? raw.close() }
        return Set(try raw.read { try String.fetchAll($0, sql: "SELECT DISTINCT stream_id FROM events") })
    }

    @Test func aBackupTakenUnderSteadyWritesRestoresIntoANewFileThatVerifiesWithEveryAcknowledgedEvent() async throws {
        let db = TemporaryDatabase()
        var configuration = ShelfmarkConfiguration(databasePath: db.path)
        configuration.durability = .off
        configuration.bcryptCost = 4
        let (library, _) = try Bootstrap.openLibrary(configuration)
        let writers = Writers()
        let backup = db.folder.appendingPathComponent("copies/backup.sqlite").path
        try FileManager.default.createDirectory(atPath: (backup as NSString).deletingLastPathComponent, withIntermediateDirectories: true)

        let (before, during, result) = try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<3 {
                group.addTask {
                    var n = 0
                    while !writers.stop.withLock({ $0 }) {
                        let book = try await library.catalogue.addBook.execute(
                            BookDraft(title: "Writer \(writer) book \(n)", authors: ["A"]), copies: 1, by: .cliOperator)
                        writers.acknowledged.withLock { $0.append(book.id) }
                        n += 1
                    }
                }
            }
            while writers.acknowledged.withLock({ $0.count }) < 30 { try await Task.sleep(for: .milliseconds(5)) }
            let before = writers.acknowledged.withLock { $0 }
            let result = try await shelfmark(["backup", "--to", backup], database: db.path)
            let during = writers.acknowledged.withLock { $0.count } - before.count
            writers.stop.withLock { $0 = true }
            try await group.waitForAll()
            return (before, during, result)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Backed up ") && result.stdout.contains(" to \(backup). Its chain key is in \(backup).key"))
        // How many writes land during the copy depends on the machine's load, so it is not asserted
        // here: BackupTests forces writes into the middle of a copy page by page.
        _ = during
        #expect(FileManager.default.fileExists(atPath: backup + ".key"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (backup as NSString).deletingLastPathComponent)
        #expect(Set(leftovers) == ["backup.sqlite", "backup.sqlite.key"], "\(leftovers)")

        let verified = try await shelfmark(["audit", "verify"], database: backup)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        let restoredPath = db.folder.appendingPathComponent("restored/library.sqlite").path
        let restored = try await shelfmark(["restore", "--from", backup], database: restoredPath)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("Restored \(backup) into \(restoredPath): "), "\(restored.stdout)")
        #expect(restored.stdout.contains("There was no library at \(restoredPath) before."))
        let again = try await shelfmark(["audit", "verify"], database: restoredPath)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let held = try streams(in: restoredPath)
        let missing = before.filter { !held.contains(StreamName.book($0).rawValue) }
        #expect(missing.isEmpty, "\(missing.count) of \(before.count) acknowledged books are missing from the restored library")
    }

    @Test func aBackupNeverOverwritesAFileUnlessForcedAndNeverTheLibraryItself() async throws {
        let db = TemporaryDatabase()
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "Herbert"], database: db.path).status == 0)
        let backup = db.folder.appendingPathComponent("backup.sqlite").path
        #expect(try await shelfmark(["backup", "--to", backup], database: db.path).status == 0)
        #expect(try await shelfmark(["book", "add", "--title", "Emma", "--author", "Austen"], database: db.path).status == 0)

        let refused = try await shelfmark(["backup", "--to", backup], database: db.path)
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: \(backup) exists already: name a new file, or give --force to replace it\n")
        let forced = try await shelfmark(["--json", "backup", "--to", backup, "--force"], database: db.path)
        #expect(forced.status == 0, "\(forced.stderr)")
        let answer = try JSONValue.parse(forced.stdout, "backup --json")
        #expect(answer["events"] == .number(2) && answer["keyFile"]?.string == backup + ".key", "\(forced.stdout)")
        #expect(try streams(in: backup) == streams(in: db.path), "the second backup holds Emma too")

        let itself = try await shelfmark(["backup", "--to", db.path, "--force"], database: db.path)
        #expect(itself.status == 1 && itself.stderr.contains("is the library itself"), "\(itself.stderr)")
        let underAFile = try await shelfmark(["backup", "--to", db.path + "/b.sqlite"], database: db.path)
        #expect(underAFile.status == 64, "\(underAFile.stderr)")
        #expect(underAFile.stderr == "Error: --to: needs the folder \(db.path), which cannot be created\n")
        // Found by an outside test: --force replaced a folder's key and anchors beside it, and a device (`/dev/null`).
        let folder = db.folder.appendingPathComponent("a-folder").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let overFolder = try await shelfmark(["backup", "--to", folder, "--force"], database: db.path)
        #expect(
            overFolder.status == 64 && overFolder.stderr == "Error: --to: '\(folder)' cannot be read or written\n", "\(overFolder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + ".key") && !FileManager.default.fileExists(atPath: folder + ".anchors"))
    }

    /// Found by an outside test: a one-letter file name (`backup --to X`, `restore` into `--db Q`)
    /// trapped in Foundation's path splitting.
    @Test func theFolderOfAPathIsWhatComesBeforeItsLastSlash() {
        #expect(LogChain.folder(of: "X") == "." && LogChain.folder(of: "/X") == "/" && LogChain.folder(of: "a/b/c.sqlite") == "a/b")
        #expect(LogChain.folder(of: "./X") == "." && LogChain.folder(of: "é") == ".")
    }
}

@Suite("restore refuses, through the CLI")
struct RestoreRefusalTests {
    /// A library of two books and a backup of it.
    func libraryWithBackup() async throws -> (TemporaryDatabase, backup: String) {
        let db = TemporaryDatabase()
        for title in ["Dune", "Emma"] {
            #expect(try await shelfmark(["book", "add", "--title", title, "--author", "A"], database: db.path).status == 0)
        }
        let backup = db.folder.appendingPathComponent("backup.sqlite").path
        let made = try await shelfmark(["backup", "--to", backup], database: db.path)
        #expect(made.status == 0, "\(made.stderr)")
        return (db, backup)
    }

    /// Files in the database's folder whose names hold `part`.
    func files(_ db: TemporaryDatabase, containing part: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (db.path as NSString).deletingLastPathComponent).filter { $0.contains(part) }
    }

    @Test func aTamperedBackupIsRefusedNamingTheCheckAndNothingIsRestored() async throws {
        let (db, backup) = try await libraryWithBackup()
        let raw = try DatabaseQueue(path: backup)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_update")
            try db.execute(sql: "UPDATE events SET payload = replace(payload, 'Dune', 'Dune II') WHERE position = 1")
        }
        try raw.close()
        let target = db.folder.appendingPathComponent("nested/restored.sqlite").path
        let refused = try await shelfmark(["restore", "--from", backup], database: target)
        #expect(refused.status == 1)
        // Progress lines (verifying the copy) come first; the refusal is one line, the last.
        let error = try #require(refused.stderr.split(separator: "\n").last)
        #expect(error.hasPrefix("Error: \(backup) does not verify, so nothing was restored: hash chain: the chain breaks at position 1"))
        #expect(refused.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }.count == 1, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try files(db, containing: "restoring").isEmpty)
    }

    /// Found by an outside test: a backup whose title index had a page of 0xFF bytes passed every
    /// check (none reads through that index), was restored, and every list sorted by title failed.
    @Test func aBackupWithADamagedIndexPageIsRefusedAndNothingIsRestored() async throws {
        let (db, backup) = try await libraryWithBackup()
        try damagePage(ofIndex: "catalogue_books_by_title", in: backup)
        let verified = try await shelfmark(["audit", "verify"], database: backup)
        #expect(verified.status == 1, "\(verified.stdout)")
        #expect(verified.stdout.contains("database file: the file is damaged (SQLite says: "), "\(verified.stdout)")
        #expect(!verified.stdout.contains("hash chain"), "nothing else is read from a damaged file: \(verified.stdout)")
        let target = db.folder.appendingPathComponent("restored.sqlite").path
        let refused = try await shelfmark(["restore", "--from", backup], database: target)
        #expect(refused.status == 1)
        let error = try #require(refused.stderr.split(separator: "\n").last)
        #expect(
            error.hasPrefix("Error: \(backup) does not verify, so nothing was restored: database file: the file is damaged"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func aBackupWithoutItsKeyIsRefusedNamingTheKey() async throws {
        let (db, backup) = try await libraryWithBackup()
        try FileManager.default.removeItem(atPath: backup + ".key")
        let refused = try await shelfmark(["restore", "--from", backup], database: db.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("its chain key file \(backup).key is missing"), "\(refused.stderr)")
        let missing = try await shelfmark(["restore", "--from", backup + ".nothing"], database: db.path)
        #expect(missing.status == 3 && missing.stderr == "Error: there is no backup at \(backup).nothing\n", "\(missing.stderr)")
        let notALibrary = db.folder.appendingPathComponent("notes.txt").path
        try "not a database".write(toFile: notALibrary, atomically: true, encoding: .utf8)
        let refusedNotes = try await shelfmark(["restore", "--from", notALibrary], database: db.path)
        #expect(refusedNotes.status == 1 && refusedNotes.stderr.contains("is not a Shelfmark library"), "\(refusedNotes.stderr)")
        #expect(try files(db, containing: "replaced").isEmpty && files(db, containing: "restoring").isEmpty)
    }

    @Test func aLibraryARunningServerHoldsIsNotReplacedAndIsKeptAsideOnceItStops() async throws {
        let (db, backup) = try await libraryWithBackup()
        #expect(try await shelfmark(["book", "add", "--title", "After the backup", "--author", "A"], database: db.path).status == 0)
        let server = try await ServingShelfmark.start(database: db.path, log: db.folder.appendingPathComponent("serve.log"))
        defer { server.process.terminate() }
        let refused = try await shelfmark(["restore", "--from", backup], database: db.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(db.path) is open in another process (a running `shelfmark serve`"), "\(refused.stderr)")
        #expect(try files(db, containing: "replaced").isEmpty && files(db, containing: "restoring").isEmpty)
        await #expect(server.stop() == 0)

        let restored = try await shelfmark(["restore", "--from", backup], database: db.path)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains(": 2 events (head "), "\(restored.stdout)")
        #expect(restored.stdout.contains("It replaced 3 events (head "), "\(restored.stdout)")
        let aside = try #require(try files(db, containing: ".replaced-").first { $0.hasSuffix("Z") })
        let asidePath = (db.path as NSString).deletingLastPathComponent + "/" + aside
        let list = try await shelfmark(["book", "list"], database: db.path)
        #expect(!list.stdout.contains("After the backup") && list.stdout.contains("Dune"), "\(list.stdout)")
        #expect(try await shelfmark(["audit", "verify"], database: db.path).status == 0)
        let kept = try await shelfmark(["book", "list"], database: asidePath)
        #expect(kept.stdout.contains("After the backup"), "the replaced library, kept aside, opens with its key: \(kept.stderr)")
        #expect(try await shelfmark(["audit", "verify"], database: asidePath).status == 0)
    }
}

/// Overwrites the first page of `index` in the SQLite file at `path` with 0xFF bytes, as a failing
/// disk or a careless tool would.
func damagePage(ofIndex index: String, in path: String) throws {
    let raw = try DatabaseQueue(path: path)
    let (page, size) = try raw.read { db in
        (
            try #require(try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [index])),
            try #require(try Int.fetchOne(db, sql: "PRAGMA page_size"))
        )
    }
    try raw.close()
    let file = try #require(FileHandle(forUpdatingAtPath: path))
    try file.seek(toOffset: UInt64((page - 1) * size))
    try file.write(contentsOf: Data(repeating: 0xFF, count: size))
    try file.close()
}
