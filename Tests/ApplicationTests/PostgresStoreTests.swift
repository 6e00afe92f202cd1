import Application
import Domain
import Foundation
import GRDB
import LogChain
import PostgresNIO
import Synchronization
import Testing

@testable import PostgresStore
@testable import SQLiteStore

/// What the PostgreSQL store guarantees beyond the event store's contract: the database refuses
/// to change the log, the chain is the SQLite one, and several servers on one database keep one
/// gap-free order. Run when `SHELFMARK_TEST_POSTGRES_URL` names a server.
@Suite("PostgreSQL store", .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresStoreTests {
    /// Runs one statement on the library's database, outside the store.
    static func execute(_ library: PostgresLibrary, _ sql: String) async throws {
        try await library.client.session(library.logger) { session in try await session.run(PostgresQuery(unsafeSQL: sql)) }
    }

    @Test("the database refuses UPDATE, DELETE, TRUNCATE and an insert out of order on events")
    func appendOnly() async throws {
        let library = try await PostgresTestServer.library()
        try await library.eventStore.append([StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2)])])
        for change in [
            "UPDATE events SET actor = 'mallory' WHERE position = 2", "DELETE FROM events WHERE position = 2", "TRUNCATE events",
            """
            INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                correlation_id, causation_id, hash)
            SELECT 4, stream_id, 3, event_type, payload, 'other', recorded_at, actor, correlation_id, causation_id, hash
            FROM events WHERE position = 2
            """,
            """
            INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                correlation_id, causation_id, hash)
            SELECT 3, stream_id, 2, event_type, payload, 'other', recorded_at, actor, correlation_id, causation_id, hash
            FROM events WHERE position = 2
            """,
        ] {
            await #expect(throws: (any Error).self, "\(change)") { try await Self.execute(library, change) }
        }
        let events = try await library.eventStore.readAll(after: 0, limit: 10)
        #expect(events.map(\.position) == [1, 2])
        #expect(events.map(\.metadata.actor) == ["test", "test"])
        await library.close()
    }

    @Test("the same events are chained to the same hashes as on SQLite")
    func sameChainAsSQLite() async throws {
        let library = try await PostgresTestServer.library()
        let sqlite = try SQLiteUnderTest(durability: .off)
        let appends = [
            [StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2)])],
            [StreamAppend("s-2", expected: .noStream, events: [pending(3)]), StreamAppend("s-1", expected: .exactly(2), events: [])],
        ]
        for append in appends {
            try await library.eventStore.append(append)
            try await sqlite.append(append)
        }
        let postgresHashes = try await library.client.session(library.logger) { session in
            try await session.column("SELECT hash FROM events ORDER BY position", as: String.self)
        }
        let sqliteHashes = try await sqlite.database.pool.read { db in
            try String.fetchAll(db, sql: "SELECT hash FROM events ORDER BY position")
        }
        #expect(postgresHashes.count == 3)
        #expect(postgresHashes == sqliteHashes)
        await library.close()
    }

    @Test("two servers on one database: racing appends keep one gap-free order, each version won once")
    func twoServers() async throws {
        let url = try await PostgresTestServer.freshDatabase()
        let a = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 4)
        let b = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 4)
        let wins = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<40 {
                group.addTask {
                    let store = writer.isMultiple(of: 2) ? a.eventStore : b.eventStore
                    var won = 0
                    for attempt in 0..<5 {
                        let version = Int64(try await store.read("shared").count)
                        do {
                            try await store.append([
                                StreamAppend("shared", expected: .exactly(version), events: [pending(writer * 10 + attempt)]),
                                StreamAppend(StreamName("own-\(writer)"), expected: .any, events: [pending(1_000 + writer * 10 + attempt)]),
                            ])
                            won += 1
                        } catch is AppendConflict {}
                    }
                    return won
                }
            }
            return try await group.reduce(0, +)
        }
        let log = try await a.eventStore.readAll(after: 0, limit: 1000)
        #expect(log.map(\.position) == Array(1...Int64(log.count)))
        #expect(log.count == wins * 2)
        #expect(try await b.eventStore.read("shared").map(\.version) == Array(1...Int64(wins)))
        await a.close()
        await b.close()
    }

    @Test("a stream name holding a NUL is refused and nothing is written")
    func nulInStreamName() async throws {
        let library = try await PostgresTestServer.library()
        await #expect(throws: UnstorableStreamName(stream: "a\u{0}b")) {
            try await library.eventStore.append([StreamAppend("a\u{0}b", expected: .noStream, events: [pending(1)])])
        }
        #expect(try await library.eventStore.readAll(after: 0, limit: 10).isEmpty)
        await library.close()
    }

    @Test("a keyed library refuses to open without its key file, and opens with it")
    func chainKey() async throws {
        let folder = TemporaryFolder()
        let keyFile = folder.url.appendingPathComponent("library.key").path
        let url = try await PostgresTestServer.freshDatabase()
        let keyed = try await PostgresLibrary.open(PostgresAddress(url), keyFile: keyFile, cipher: personalCipher)
        try await keyed.eventStore.append([StreamAppend("s-1", expected: .noStream, events: [pending(1)])])
        await keyed.close()
        await #expect(throws: ChainKeyError.self) { try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher) }
        let again = try await PostgresLibrary.open(PostgresAddress(url), keyFile: keyFile, cipher: personalCipher)
        #expect(try await again.eventStore.read("s-1").count == 1)
        await again.close()
    }

    @Test("a keyed SQLite log copied into PostgreSQL and back keeps every event, hash and member's data, and verifies")
    func copyBothWays() async throws {
        let folder = TemporaryFolder()
        let source = try LibraryDatabase(path: folder.databasePath, durability: .off, keyFile: folder.databasePath + ".key")
        defer { try? source.close() }
        let bob = UserID(UUID())
        let ada = EventStoreErasureContractTests.ada
        try await EventStoreErasureContractTests.append(source.eventStore, .user(ada), EventStoreErasureContractTests.registered())
        try await EventStoreErasureContractTests.append(
            source.eventStore, .user(bob), EventStoreErasureContractTests.registered(bob, "bob"))
        try await EventStoreErasureContractTests.append(source.eventStore, .user(ada), .user(.closed(UserClosed(user: ada))))
        try await source.eventStore.append([StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2)])])

        let url = try await PostgresTestServer.freshDatabase()
        let keyFile = folder.url.appendingPathComponent("postgres.key").path
        let target = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher)
        let copied = try await LogCopy.copy(from: source, to: target, carryingSecrets: true, keyFile: keyFile) { _, _ in }
        #expect(copied == 5)
        await target.close()
        // Opened again, as `shelfmark copy` leaves it: with the key file it was given.
        let postgres = try await PostgresLibrary.open(PostgresAddress(url), keyFile: keyFile, cipher: personalCipher)
        #expect(try await postgres.eventStore.readAll(after: 0, limit: 10) == (try await source.eventStore.readAll(after: 0, limit: 10)))
        let bobsAddress = try EmailAddress(parsing: "bob@example.org")
        #expect(postgres.eventStore.claimNames.email(bobsAddress) == source.eventStore.claimNames.email(bobsAddress))
        let sqliteHashes = try await source.pool.read { db in try String.fetchAll(db, sql: "SELECT hash FROM events ORDER BY position") }
        let postgresHashes = try await postgres.client.session(postgres.logger) { session in
            try await session.column("SELECT hash FROM events ORDER BY position", as: String.self)
        }
        #expect(postgresHashes == sqliteHashes)
        // Appends go on from the copy, chained with the same key.
        try await postgres.eventStore.append([StreamAppend("s-1", expected: .exactly(2), events: [pending(3)])])

        let back = folder.url.appendingPathComponent("back.sqlite").path
        let returned = try LibraryDatabase(path: back, durability: .off)
        _ = try await LogCopy.copy(from: postgres, to: returned, carryingSecrets: true, keyFile: back + ".key") { _, _ in }
        #expect(try await returned.eventStore.readAll(after: 0, limit: 10) == (try await postgres.eventStore.readAll(after: 0, limit: 10)))
        try returned.close()
        let reopened = try LibraryDatabase(path: back, durability: .off, keyFile: back + ".key")
        defer { try? reopened.close() }
        let failed = try await reopened.verify { _, _ in }.filter { !$0.passed }
        #expect(failed.isEmpty, Comment(rawValue: String(describing: failed)))
        await postgres.close()
    }

    @Test("a backup counts its progress in events, up to the log's head; SQLite's counts pages")
    func backupProgress() async throws {
        let folder = TemporaryFolder()
        let library = try await PostgresTestServer.library()
        try await library.eventStore.append([StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2), pending(3)])])
        let backup = SQLiteCopy(of: library, cipher: personalCipher)
        #expect(backup.progressUnit == .events)
        let reports = Mutex<[(Int64, Int64)]>([])
        _ = try await backup.backUp(to: folder.url.appendingPathComponent("b.sqlite").path, anchors: nil, replacing: false) { done, total in
            reports.withLock { $0.append((done, total)) }
        }
        #expect(reports.withLock { $0.last.map { $0 == (3, 3) } } == true, "\(reports.withLock { $0 })")
        await library.close()
        let sqlite = try LibraryDatabase(path: folder.url.appendingPathComponent("s.sqlite").path, durability: .off)
        defer { try? sqlite.close() }
        #expect(sqlite.progressUnit == .pages)
    }

    @Test("export, an export's verification and history answer as on SQLite for the same log")
    func archiveAsOnSQLite() async throws {
        let folder = TemporaryFolder()
        let source = try LibraryDatabase(path: folder.databasePath, durability: .off)
        defer { try? source.close() }
        let ada = EventStoreErasureContractTests.ada
        let bob = UserID(UUID())
        try await EventStoreErasureContractTests.append(source.eventStore, .user(ada), EventStoreErasureContractTests.registered())
        try await EventStoreErasureContractTests.append(
            source.eventStore, .user(bob), EventStoreErasureContractTests.registered(bob, "bob"))
        try await EventStoreErasureContractTests.append(source.eventStore, .user(ada), .user(.closed(UserClosed(user: ada))))
        try await source.eventStore.append([StreamAppend("s-1", expected: .noStream, events: [pending(1), pending(2), pending(3)])])
        let postgres = try await PostgresTestServer.library()
        _ = try await LogCopy.copy(from: source, to: postgres, carryingSecrets: true) { _, _ in }
        let url = try await Self.url(of: postgres)
        await postgres.close()
        let reopened = try await PostgresLibrary.open(PostgresAddress(url), cipher: personalCipher, maximumConnections: 4)

        for secrets in [ExportedSecrets.redacted, .included] {
            for from in [Int64(1), 3] {
                var sqliteLines: [String] = []
                var postgresLines: [String] = []
                #expect(try await source.export(from: from, secrets: secrets) { sqliteLines.append($0) } == 7 - from)
                #expect(try await reopened.export(from: from, secrets: secrets) { postgresLines.append($0) } == 7 - from)
                #expect(postgresLines == sqliteLines)
                #expect(reopened.verifyExport(lines: postgresLines) == source.verifyExport(lines: sqliteLines))
            }
        }
        for stream: StreamName in [.user(ada), .user(bob), "s-1", "nothing"] {
            let page = try PageRequest(limit: 2, offset: 1)
            #expect(try await reopened.history(stream, page: page) == (try await source.history(stream, page: page)))
            #expect(try await reopened.events(stream, before: 3) == (try await source.events(stream, before: 3)))
        }
        await reopened.close()
    }

    /// The URL of the database a library was opened on.
    static func url(of library: PostgresLibrary) async throws -> String {
        let name = try await library.client.session(library.logger) { session in
            try await session.value("SELECT current_database()", as: String.self)
        }
        var parts = URLComponents(string: try PostgresTestServer.required())!
        parts.path = "/" + (name ?? "")
        return parts.string!
    }
}
