import Foundation
import GRDB
import Testing

/// An event appended to the file outside Shelfmark that cannot be read back (found by an outside
/// test: every command, `audit verify` included, then stopped with "failed unexpectedly" or a
/// decoding error, exit 70, so verify could not say what was wrong).
@Suite("A log with an event that cannot be read, through the CLI")
struct UnreadableLogTests {
    @Test func verifySaysWhatIsWrongBackupKeepsACopyAndEveryOtherCommandStopsWithOneLine() async throws {
        let db = TemporaryDatabase()
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path).status == 0)
        let raw = try DatabaseQueue(path: db.path)
        try await raw.write { db in
            try db.execute(
                sql: """
                    INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                        correlation_id, causation_id, hash)
                    VALUES (2, 'book-zzz', 1, 'book.added.v1', '{}', 'e1', '2026-11-29T00:00:00.000Z', 'x', 'c1', NULL, '00')
                    """)
        }
        try raw.close()

        let verify = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect(
            verify.stdout.contains("FAIL replay: stopped: position 2: the event id of book.added.v1 cannot be read"), "\(verify.stdout)")
        #expect(verify.stdout.contains("FAIL hash chain: the chain breaks at position 2"), "\(verify.stdout)")
        let said = "Error: the log cannot be read at position 2 ("
        // An anchor would sign the altered head, and a migration call the library fine (found by an outside walk).
        for arguments in [["book", "list"], ["serve", "--port", "0"], ["audit", "export"], ["audit", "anchor"], ["migrate"]] {
            let stopped = try await shelfmark(arguments, database: db.path)
            #expect(stopped.status == 1, "\(arguments): \(stopped.stderr)")
            #expect(
                stopped.stderr.hasPrefix(said) && stopped.stderr.contains("changed outside Shelfmark"), "\(arguments): \(stopped.stderr)")
            #expect(stopped.stderr.split(separator: "\n").count == 1, "\(stopped.stderr)")
        }
        let copy = db.folder.appendingPathComponent("kept.sqlite").path
        let backup = try await shelfmark(["backup", "--to", copy], database: db.path)
        #expect(backup.status == 0 && FileManager.default.fileExists(atPath: copy), "\(backup.stderr)")
    }

    /// Found by an outside walk: a file too damaged to open was exit 2, "a setting cannot be used",
    /// which a monitor watching verify's exit 1 would miss.
    @Test func aFileTooDamagedToOpenFailsVerifyLikeAnyDamage() async throws {
        let db = TemporaryDatabase()
        for n in 1...20 { _ = try await shelfmark(["book", "add", "--title", "Book \(n)", "--author", "F"], database: db.path) }
        #expect(try await shelfmark(["audit", "verify"], database: db.path).status == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db.path))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 100))  // the header SQLite recognises a database by
        try handle.close()
        let verify = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("FAIL database file: the file is damaged"), "\(verify.stdout)")
        #expect(verify.stdout.contains("The log does NOT verify."))
        let json = try await shelfmark(["--json", "audit", "verify"], database: db.path)
        #expect(json.status == 1 && json.stdout.contains("\"ok\" : false"), "\(json.stdout)")
        // A folder is no damaged library: still a setting that cannot be used.
        #expect(try await shelfmark(["audit", "verify"], database: db.folder.path).status == 2)
    }
}
