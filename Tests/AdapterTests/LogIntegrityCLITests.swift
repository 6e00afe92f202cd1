import Foundation
import GRDB
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("the chain key, anchors and a clean stop, through the CLI and serve")
struct LogIntegrityCLITests {
    func addBooks(_ count: Int, _ db: TemporaryDatabase) async throws {
        for n in 1...count {
            #expect(try await shelfmark(["book", "add", "--title", "Book \(n)", "--author", "A"], database: db.path).status == 0)
        }
    }

    @Test func anAnchorKeptElsewhereCatchesACutTailThatTheChainCannot() async throws {
        let db = TemporaryDatabase()
        try await addBooks(4, db)
        let anchors = db.folder.appendingPathComponent("offsite.anchors").path
        let anchored = try await shelfmark(["audit", "anchor", "--to", anchors], database: db.path)
        #expect(anchored.status == 0 && anchored.stdout.hasPrefix("Anchored position 4 (hash "), "\(anchored.stdout)\(anchored.stderr)")
        #expect(try await shelfmark(["audit", "verify", "--anchor", anchors], database: db.path).status == 0)

        let raw = try DatabaseQueue(path: db.path)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_delete; DELETE FROM events WHERE position > 2")
            try db.execute(
                sql: """
                    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                    BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END
                    """)
        }
        try raw.close()
        #expect(try await shelfmark(["projections", "rebuild"], database: db.path).status == 0)
        let unanchored = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(unanchored.status == 0 && unanchored.stdout.contains("ok   anchors: no anchor file yet"), "\(unanchored.stdout)")
        let caught = try await shelfmark(["audit", "verify", "--anchor", anchors], database: db.path)
        #expect(caught.status == 1, "\(caught.stdout)")
        #expect(caught.stdout.contains("FAIL anchors: the log lacks the head anchored at position 4 on "), "\(caught.stdout)")
        #expect(caught.stdout.contains("the log ends at position 2: events were cut"))
    }

    @Test func theKeyFileIsTheOwnersAloneAndTheLibraryDoesNotOpenWithoutIt() async throws {
        let db = TemporaryDatabase()
        try await addBooks(1, db)
        let key = db.path + ".key"
        #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == 0o600)
        #expect(try await shelfmark(["audit", "verify"], database: db.path).stdout.contains("ok   hash chain: positions 1–1 keyed"))
        try FileManager.default.moveItem(atPath: key, toPath: key + ".aside")
        let refused = try await shelfmark(["book", "list"], database: db.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("with the chain key file \(key), which is missing"), "\(refused.stderr)")
        let elsewhere = try await shelfmark(["book", "list"], database: db.path, environment: ["SHELFMARK_CHAIN_KEY": key + ".aside"])
        #expect(elsewhere.status == 0 && elsewhere.stdout.contains("Book 1"), "\(elsewhere.stderr)")
        // Found by an outside test: a new library whose key file could not be made was left behind, its schema and all.
        let new = db.folder.appendingPathComponent("new.sqlite").path
        let unmade = try await shelfmark(["book", "list"], database: new, environment: ["SHELFMARK_CHAIN_KEY": "/no/such/folder/k"])
        #expect(unmade.status == 2, "\(unmade.stderr)")
        for suffix in ["", "-wal", "-shm", ".lock"] { #expect(!FileManager.default.fileExists(atPath: new + suffix), "\(suffix)") }
        // Found by an outside test: through a symbolic link, the key was looked for beside the link.
        try FileManager.default.moveItem(atPath: key + ".aside", toPath: key)
        let link = db.folder.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: db.path)
        let linked = try await shelfmark(["book", "list"], database: link)
        #expect(linked.status == 0 && linked.stdout.contains("Book 1"), "\(linked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: link + ".key") && !FileManager.default.fileExists(atPath: link + ".lock"))
    }

    @Test func serveAnchorsPeriodicallyAndAtACleanStopAndLeavesEveryEventInTheFile() async throws {
        let db = TemporaryDatabase()
        try await addBooks(3, db)
        let server = try await ServingShelfmark.start(
            database: db.path, log: db.folder.appendingPathComponent("serve.log"), environment: ["SHELFMARK_ANCHOR_INTERVAL": "1"])
        defer { server.process.terminate() }
        let log = server.log

        let anchors = db.path + ".anchors"
        func lines() -> [Substring] { ((try? String(contentsOfFile: anchors, encoding: .utf8)) ?? "").split(separator: "\n") }
        for _ in 0..<100 where lines().isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        let serveLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(lines().first?.hasPrefix("3 ") == true, "no periodic anchor: \(serveLog)")
        #expect(try await shelfmark(["book", "add", "--title", "While serving", "--author", "A"], database: db.path).status == 0)

        await #expect(server.stop() == 0)  // SIGTERM
        #expect(lines().last?.hasPrefix("4 ") == true, "\(lines())")  // the anchor written at the stop
        let walSize = (try? FileManager.default.attributesOfItem(atPath: db.path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
        let copy = db.folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: db.path, toPath: copy)
        let raw = try DatabaseQueue(path: copy)
        #expect(try await raw.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM events") } == 4)
        try raw.close()
        #expect(
            try await shelfmark(["audit", "verify"], database: db.path).stdout.contains("ok   anchors: the log holds every anchored head"))
    }
}
