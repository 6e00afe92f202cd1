import Foundation
import Testing

/// `serve`'s rotating backups through the real binary (issue 21): the schedule, the rotation and its
/// settings, split from `BackupCLITests` along the line between a command and a running server.
@Suite("serve keeps rotating backups")
struct BackupRotationServeTests {
    @Test func serveBacksUpEveryIntervalAndKeepsTheNewestN() async throws {
        let db = TemporaryDatabase()
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "A"], database: db.path).status == 0)
        let folder = db.folder.appendingPathComponent("backups")
        let server = try await ServingShelfmark.start(
            database: db.path, log: db.folder.appendingPathComponent("serve.log"),
            environment: ["SHELFMARK_BACKUP_EVERY": "1s", "SHELFMARK_BACKUP_KEEP": "2", "SHELFMARK_BACKUP_DIR": folder.path])
        defer { server.process.terminate() }
        func backedUp() -> Int {
            ((try? String(contentsOf: server.log, encoding: .utf8)) ?? "").components(separatedBy: " events to \(folder.path)/").count - 1
        }
        for _ in 0..<300 where backedUp() < 3 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(backedUp() >= 3, "\((try? String(contentsOf: server.log, encoding: .utf8)) ?? "")")
        await #expect(server.stop() == 0)
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(log.contains("backing up every 1s into \(folder.path), keeping 2"), "\(log)")
        #expect(log.contains("removed the old backup library-"), "\(log)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let backups = names.filter { $0.hasSuffix(".sqlite") }
        #expect(backups.count == 2, "\(names)")
        #expect(Set(names) == Set(backups.flatMap { [$0, $0 + ".key"] }), "\(names)")
        for backup in backups {
            #expect(try await shelfmark(["audit", "verify"], database: folder.appendingPathComponent(backup).path).status == 0)
        }
    }

    /// Found by an outside walk: a chain key kept in the backup folder under an old backup's name
    /// (`SHELFMARK_CHAIN_KEY`) was removed with that backup, and the library no longer opened.
    @Test func theRotationNeverRemovesTheLibrarysOwnFiles() async throws {
        let db = TemporaryDatabase()
        let backups = db.folder.appendingPathComponent("bk").path
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let old = backups + "/library-20200101-000000Z.sqlite"
        let environment = [
            "SHELFMARK_CHAIN_KEY": old + ".key", "SHELFMARK_BACKUP_EVERY": "1s", "SHELFMARK_BACKUP_KEEP": "1",
            "SHELFMARK_BACKUP_DIR": backups,
        ]
        #expect(
            try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path, environment: environment).status
                == 0)
        try Data("an old backup".utf8).write(to: URL(fileURLWithPath: old))
        let server = try await ServingShelfmark.start(
            database: db.path, log: db.folder.appendingPathComponent("serve.log"), environment: environment)
        for _ in 0..<200 where FileManager.default.fileExists(atPath: old) { try await Task.sleep(for: .milliseconds(100)) }
        _ = await server.stop()
        #expect(!FileManager.default.fileExists(atPath: old), "the rotation ran")
        #expect(FileManager.default.fileExists(atPath: old + ".key"), "the library's key stays")
        let listed = try await shelfmark(["book", "list"], database: db.path, environment: environment)
        #expect(listed.status == 0 && listed.stdout.contains("Dune"), "\(listed.stderr)")
    }

    @Test func aBadDurationOrCountStopsServeWithOneLine() async throws {
        let db = TemporaryDatabase()
        let file = db.folder.appendingPathComponent("a-file").path
        for (arguments, line) in [
            (["--backup-every", "6x"], "--backup-every must be a duration from 1s to 365d"),
            (["--backup-every", "0m"], "--backup-every must be a duration from 1s to 365d"),
            (["--backup-every", "1h", "--keep", "0"], "--keep must be "),
            // A folder that cannot be one stops serve at once, not each backup later (found by an outside test).
            (["--backup-every", "1h", "--backup-dir", file], "--backup-dir needs the folder \(file), which cannot be created"),
            (["--backup-every", "1h", "--backup-dir", file + "/inside"], "--backup-dir needs the folder \(file)/inside"),
        ] {
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
            let refused = try await shelfmark(["serve", "--port", "0"] + arguments, database: db.path)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("Error: \(line)"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
    }
}
