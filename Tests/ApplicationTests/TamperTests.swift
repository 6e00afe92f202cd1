import Application
import Domain
import Foundation
import GRDB
import LogChain
import Testing

@testable import SQLiteStore

/// Changing stored events with the sqlite3 shell, as issue 12's attacker did.
@Suite("tampering with the stored log")
struct TamperTests {
    static let columns =
        "position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor, correlation_id, causation_id, hash"

    /// A database of three events written by the store, closed.
    func threeEvents() async throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        for n in 1...3 {
            try await database.eventStore.append([StreamAppend(StreamName("s-\(n)"), expected: .noStream, events: [pending(n)])])
        }
        try database.close()
        return folder
    }

    func rows(_ path: String) throws -> [Row] {
        let raw = try DatabaseQueue(path: path)
        defer { try? raw.close() }
        return try raw.read { try Row.fetchAll($0, sql: "SELECT * FROM events ORDER BY position") }
    }

    @Test func replaceInsertOrReplaceAndUpsertCannotChangeAStoredEvent() async throws {
        let folder = try await threeEvents()
        let before = try rows(folder.databasePath)
        let rewritten = """
            SELECT position, stream_id, stream_version, event_type, replace(payload, 'Book 2', 'Book Two'), event_id, recorded_at,
                   'mallory', correlation_id, causation_id, hash FROM events WHERE position = 2
            """
        let attacks = [
            "REPLACE INTO events (\(Self.columns)) \(rewritten)",
            "INSERT OR REPLACE INTO events (\(Self.columns)) \(rewritten)",
            "INSERT INTO events (\(Self.columns)) \(rewritten) ON CONFLICT (position) DO UPDATE SET payload = excluded.payload",
            "INSERT INTO events (\(Self.columns)) \(rewritten) ON CONFLICT DO NOTHING",
            // The next position, but a stored (stream, version): REPLACE would delete the event holding it.
            """
            INSERT OR REPLACE INTO events (\(Self.columns)) SELECT 4, stream_id, stream_version, event_type, payload, 'another id',
                recorded_at, actor, correlation_id, causation_id, hash FROM events WHERE position = 2
            """,
            // The next position and a new stream, but a stored event id.
            """
            INSERT OR REPLACE INTO events (\(Self.columns)) SELECT 4, 'another stream', 1, event_type, payload, event_id,
                recorded_at, actor, correlation_id, causation_id, hash FROM events WHERE position = 2
            """,
            // A gap, or no position at all (SQLite would pick the next rowid itself).
            "INSERT INTO events (\(Self.columns)) SELECT 9, 'x', 1, event_type, payload, 'x', recorded_at, actor, correlation_id, NULL, hash FROM events WHERE position = 2",
            "INSERT INTO events (stream_id, stream_version, event_type, payload, event_id, recorded_at, actor, correlation_id) VALUES ('x', 1, 't', '{}', 'x', 'r', 'a', 'c')",
        ]
        let raw = try DatabaseQueue(path: folder.databasePath)
        for sql in attacks {
            let error = #expect(throws: DatabaseError.self, "\(sql)") { try raw.write { try $0.execute(sql: sql) } }
            #expect(error?.message?.contains("append-only") == true, "\(sql): \(String(describing: error))")
        }
        try raw.close()
        #expect(try rows(folder.databasePath) == before)
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        #expect(try await database.verify { _, _ in }.allSatisfy(\.passed))
    }

    @Test func verifyComparesTheTriggersDefinitionsNotTheirNames() async throws {
        let folder = try await threeEvents()
        let raw = try DatabaseQueue(path: folder.databasePath)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_update")
            try db.execute(sql: "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END")
        }
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        var triggers = try #require(try await database.verify { _, _ in }.first { $0.name == "append-only triggers" })
        #expect(!triggers.passed && triggers.detail.contains("events_no_update is not the trigger Shelfmark created"), "\(triggers)")

        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_update")
            try db.execute(sql: Schema.noUpdateTrigger)
            try db.execute(sql: "CREATE TRIGGER events_audit AFTER INSERT ON events BEGIN SELECT 1; END")
        }
        triggers = try #require(try await database.verify { _, _ in }.first { $0.name == "append-only triggers" })
        #expect(!triggers.passed && triggers.detail == "unexpected trigger: events_audit (on events)", "\(triggers)")

        // Found by an outside test: a trigger on another table (here one emptying the login
        // throttle's failures) passed, since only the triggers of `events` were read.
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_audit")
            try db.execute(sql: "CREATE TRIGGER nolock AFTER INSERT ON login_failures BEGIN DELETE FROM login_failures; END")
        }
        triggers = try #require(try await database.verify { _, _ in }.first { $0.name == "append-only triggers" })
        #expect(!triggers.passed && triggers.detail == "unexpected trigger: nolock (on login_failures)", "\(triggers)")
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER nolock; CREATE TRIGGER events_audit AFTER INSERT ON events BEGIN SELECT 1; END")
        }

        try await raw.write { db in try db.execute(sql: "DROP TRIGGER events_audit; DROP TRIGGER events_insert_guard") }
        triggers = try #require(try await database.verify { _, _ in }.first { $0.name == "append-only triggers" })
        #expect(!triggers.passed && triggers.detail == "events_insert_guard is missing", "\(triggers)")
        try raw.close()
    }

    @Test func anEventThatCannotBeReadIsANamedFailureNotACrash() async throws {
        let folder = try await threeEvents()
        let raw = try DatabaseQueue(path: folder.databasePath)
        try await raw.write { db in
            try db.execute(sql: "DROP TRIGGER events_no_update")
            try db.execute(sql: "UPDATE events SET payload = '{\"copies\":1}' WHERE position = 2")
            try db.execute(sql: "UPDATE events SET event_type = 'nothing.known.v1' WHERE position = 3")
            try db.execute(sql: Schema.noUpdateTrigger)
        }
        try raw.close()
        let unreadable = UnreadableEvent(position: 2, type: "book.added.v1", part: .payload)
        // The read models are current, so opening reads no event; the verify and a replay do.
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        let checks = try await database.verify { _, _ in }
        let failed = Dictionary(uniqueKeysWithValues: checks.filter { !$0.passed }.map { ($0.name, $0.detail) })
        #expect(failed["replay"] == "stopped: position 2: the payload of book.added.v1 cannot be read", "\(checks)")
        #expect(failed["hash chain"]?.hasPrefix("the chain breaks at position 2") == true, "\(checks)")
        let into = folder.url.appendingPathComponent("replayed.sqlite").path
        await #expect(throws: unreadable) { try await database.replay(into: into, until: .end) { _, _ in } }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).allSatisfy { !$0.hasPrefix("replayed") }, "nothing left")
        await #expect(throws: unreadable) { try await database.rebuild { _, _ in } }
        // History, the tool for looking into a changed log, says it too (it was an internal error)
        await #expect(throws: unreadable) { try await database.history(StreamName("s-2"), page: .first) }
        await #expect(throws: UnreadableEvent(position: 3, type: "nothing.known.v1", part: .unknownType)) {
            try await database.history(StreamName("s-3"), page: .first)
        }
        #expect(try await database.history(StreamName("s-1"), page: .first).items.map(\.position) == [1])
    }
}
