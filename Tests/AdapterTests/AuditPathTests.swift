import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

@Suite("audit verify over HTTP and the CLI")
struct AuditPathTests {
    @Test func httpForLibrariansOnly() async throws {
        try await withAPI { api in
            _ = try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#)
            let report = try await api.send(.get, "/api/v1/audit/verify").object
            let names = (report["checks"] as? [[String: Any]])?.map { $0["name"] as? String }
            #expect(
                report["ok"] as? Bool == true
                    && names == [
                        "database file", "chain key", "hash chain", "contiguity", "append-only triggers", "replay", "personal data",
                        "anchors",
                    ])
            #expect(
                try await api.send(.get, "/api/v1/audit/verify", token: try await api.signUpMember("m@example.org")).status == .forbidden)
        }
    }

    @Test func cliExitsNonZeroNamingTheBrokenPosition() async throws {
        let db = TemporaryDatabase()
        for n in 1...3 { _ = try await shelfmark(["book", "add", "--title", "Book \(n)", "--author", "A"], database: db.path) }
        let ok = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(ok.status == 0 && ok.stdout.contains("The log verifies."), "\(ok.stdout)\(ok.stderr)")
        let raw = try DatabaseQueue(path: db.path)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_update")
            try db.execute(sql: "UPDATE events SET payload = replace(payload, 'Book 2', 'Book Two') WHERE position = 2")
        }
        try raw.close()
        let broken = try await shelfmark(["--json", "audit", "verify"], database: db.path)
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("the chain breaks at position 2") && broken.stdout.contains("\"ok\" : false"), "\(broken.stdout)")
        // A hash altered in its last character is shown long enough to see where the two differ
        // (found by an outside walk: both were shown as the same 12 characters).
        let last = try await DatabaseQueue(path: db.path).write { db in
            try db.execute(sql: "DROP TRIGGER IF EXISTS events_no_update")
            try db.execute(sql: "UPDATE events SET payload = replace(payload, 'Book Two', 'Book 2') WHERE position = 2")
            let hash = try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = 3") ?? ""
            let altered = String(hash.dropLast()) + (hash.last == "0" ? "1" : "0")
            try db.execute(sql: "UPDATE events SET hash = ? WHERE position = 3", arguments: [altered])
            return (hash, altered)
        }
        let shown = try await shelfmark(["audit", "verify"], database: db.path)
        #expect(shown.stdout.contains("chain breaks at position 3 (stored \(last.1), computed \(last.0))"), "\(shown.stdout)")
    }

    @Test func exportedLogsVerifyOffline() async throws {
        let db = TemporaryDatabase()
        for n in 1...3 { _ = try await shelfmark(["book", "add", "--title", "Book \(n)", "--author", "A"], database: db.path) }
        let file = db.folder.appendingPathComponent("export.jsonl").path
        let exported = try await shelfmark(["audit", "export", "--format", "jsonl", "--output", file], database: db.path)
        #expect(exported.status == 0 && exported.stdout.contains("Exported 3 events."), "\(exported.stderr)")
        // The events are keyed: the export verifies where the library's chain key is (its events are not read)…
        #expect(try await shelfmark(["audit", "verify", "--file", file], database: db.path).stdout.contains("The log verifies."))
        // …and not with another library's key: without the key, no one can recompute the hashes.
        let other = TemporaryDatabase()
        // A mistyped --db is no library: nothing is made there, and the export is not called altered
        // for want of the key a new library would have drawn (found by an outside test).
        let nowhere = try await shelfmark(["audit", "verify", "--file", file], database: other.path)
        #expect(nowhere.status == 2 && nowhere.stderr.contains(other.path), "\(nowhere.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.path) && !FileManager.default.fileExists(atPath: other.path + ".key"))
        _ = try await shelfmark(["book", "add", "--title", "Elsewhere", "--author", "B"], database: other.path)
        #expect(
            try await shelfmark(["audit", "verify", "--file", file], database: other.path).stdout.contains("the chain breaks at position 1")
        )
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "Book 3", with: "Book Three").write(toFile: file, atomically: true, encoding: .utf8)
        let broken = try await shelfmark(["audit", "verify", "--file", file], database: db.path)
        #expect(broken.status == 1 && broken.stdout.contains("the chain breaks at position 3"))
        let partial = try await shelfmark(["audit", "export", "--from", "2"], database: db.path)
        #expect(partial.stdout.split(separator: "\n").count == 2)
    }

    /// Found by an outside test: a refused or invalid export emptied the file it was to write, an
    /// export to a device replaced it, `--anchor` was ignored beside `--file`, and a mistyped `--db`
    /// made an empty library that "verified".
    @Test func aRefusedExportLeavesItsFileAndAMissingLibraryIsNotMade() async throws {
        let db = TemporaryDatabase()
        #expect(try await shelfmark(["book", "add", "--title", "Dune", "--author", "A"], database: db.path).status == 0)
        let file = db.folder.appendingPathComponent("export.jsonl").path
        #expect(try await shelfmark(["audit", "export", "-o", file], database: db.path).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let invalid = try await shelfmark(["audit", "export", "--from", "-3", "-o", file], database: db.path)
        #expect(invalid.status == 64, "\(invalid.stderr)")
        #expect(
            try await shelfmark(
                ["signup", "--email", "eve@example.org", "--country", "GB", "--login"], database: db.path, stdin: "Member-Pass1\n"
            ).status == 0)
        let refused = try await shelfmark(["audit", "export", "-o", file], database: db.path)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == exported, "the refused exports left the file as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: db.folder.path).allSatisfy { !$0.contains(".partial-") })
        _ = try await shelfmark(["logout"], database: db.path)
        let toFolder = try await shelfmark(["audit", "export", "-o", db.folder.path], database: db.path)
        #expect(toFolder.status == 64 && toFolder.stderr.contains("cannot be read or written"), "\(toFolder.stderr)")

        let both = try await shelfmark(["audit", "verify", "--file", file, "--anchor", file + ".anchors"], database: db.path)
        #expect(both.status == 64 && both.stderr.contains("cannot be used with --file"), "\(both.stderr)")

        let typo = db.folder.appendingPathComponent("libary.sqlite").path
        for command in [
            ["audit", "verify"], ["audit", "export"], ["backup", "--to", db.folder.appendingPathComponent("b.sqlite").path],
            // Found by a later walk: time travel and a replay made a new, empty library there and answered from it
            ["audit", "as-of", "2026-01-01T00:00:00Z", "books"],
            ["audit", "replay", "--into", db.folder.appendingPathComponent("r.sqlite").path],
        ] {
            let missing = try await shelfmark(command, database: typo)
            #expect(missing.status == 2 && missing.stderr.contains("where there is no library"), "\(command): \(missing.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: typo) && !FileManager.default.fileExists(atPath: typo + ".key"))
        #expect(!FileManager.default.fileExists(atPath: db.folder.appendingPathComponent("r.sqlite").path))
        let before = try await shelfmark(
            ["audit", "replay", "--until=-1", "--into", db.folder.appendingPathComponent("r.sqlite").path], database: db.path)
        #expect(before.status == 64 && before.stderr.contains("until"), "\(before.stderr)")
    }

    @Test func historyOfABookAndAMember() async throws {
        try await withAPI { api in
            let id = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#).object["id"] as? String)
            _ = try await api.send(.patch, "/api/v1/books/\(id)", json: #"{"title":"U"}"#)
            let items = try #require(try await api.send(.get, "/api/v1/audit/history?book=\(id)").object["items"] as? [[String: Any]])
            #expect(items.map { $0["type"] as? String } == ["book.added.v1", "book.edited.v1"])
            #expect((items[0]["actor"] as? String)?.hasPrefix("user:") == true)
            #expect(items[0]["actorName"] as? String == "Lib <librarian@example.org>")
            let member = try await api.signUpMember("ada@example.org")
            let mine = try #require(
                try await api.send(.get, "/api/v1/audit/history?member=ada@example.org").object["items"] as? [[String: Any]])
            let types = mine.compactMap { $0["type"] as? String }
            #expect(types.first == "user.registered.v1" && types.contains("user.session-opened.v1"), "\(types)")
            #expect(try await api.send(.get, "/api/v1/audit/history?book=\(id)&loan=x").status == .badRequest)
            #expect(try await api.send(.get, "/api/v1/audit/history?stream=nothing-here").status == .notFound)
            #expect(try await api.send(.get, "/api/v1/audit/history?book=\(id)", token: member).status == .forbidden)
        }
        let db = TemporaryDatabase()
        let added = try await shelfmark(["--json", "book", "add", "--title", "T", "--author", "A"], database: db.path)
        let id = try #require((try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])?["id"] as? String)
        let history = try await shelfmark(["audit", "history", "--book", id], database: db.path)
        #expect(history.status == 0 && history.stdout.contains("book.added.v1") && history.stdout.contains("operator"))
    }

    @Test func asOfOverHTTPAndReplayFromTheCLI() async throws {
        let clock = ManualClock()
        try await withAPI(clock: clock) { api in
            let before = clock.now()
            clock.advance(by: 60)
            _ = try await api.send(.post, "/api/v1/books", json: #"{"title":"Later","authors":["A"]}"#)
            let at = { (d: Date) in d.formatted(.iso8601).replacingOccurrences(of: ":", with: "%3A") }
            let then = try await api.send(.get, "/api/v1/audit/as-of?at=\(at(before))&view=books").object
            #expect((then["books"] as? [Any])?.isEmpty == true)
            let now = try await api.send(.get, "/api/v1/audit/as-of?at=\(at(clock.now()))&view=books").object
            #expect((now["books"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Later"])
            #expect(try await api.send(.get, "/api/v1/audit/as-of?at=\(at(before))&view=member").status == .badRequest)
            #expect(try await api.send(.get, "/api/v1/audit/as-of?at=\(at(before))&view=books", token: .none).status == .unauthorized)
        }
        let db = TemporaryDatabase()
        for n in 1...3 { _ = try await shelfmark(["book", "add", "--title", "Book \(n)", "--author", "A"], database: db.path) }
        let into = db.folder.appendingPathComponent("replayed.sqlite").path
        let replay = try await shelfmark(["audit", "replay", "--until", "2", "--into", into], database: db.path)
        #expect(replay.status == 0 && replay.stdout.contains("Replayed 2 events"), "\(replay.stderr)")
        #expect(try await shelfmark(["book", "list"], database: into).stdout.contains("1-2 of 2"))
        let future = Date().addingTimeInterval(3600).formatted(.iso8601)
        #expect(try await shelfmark(["audit", "as-of", future, "books"], database: db.path).stdout.contains("Book 3"))
        #expect(try await shelfmark(["audit", "as-of", "2000-01-01T00:00:00Z", "books"], database: db.path).stdout.contains("No books."))
    }
}
