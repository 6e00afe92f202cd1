import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

/// Answers remembered between commits (issue 20): a book, a page of the catalogue and an empty
/// stream tail are read once and kept while the database's wal-index header says nothing was
/// committed, by any connection of any process; any commit makes the next read go to the database.
@Suite("Answers kept until the database changes")
struct DatabaseChangesTests {
    static let book = BookID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)

    static func edited(_ title: String) -> PendingEvent {
        PendingEvent(.book(.edited(BookEdited(book: book, details: BookDetails(title: title, authors: ["Author 1"])))), metadata(2))
    }

    @Test func theStampStaysWhileNothingIsCommittedAndMovesWithEveryCommitOfAnyConnection() async throws {
        // Given a library
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath)
        let before = try #require(database.reads.changes.stamp())

        // Then reading changes nothing
        _ = try await database.headPosition()
        #expect(database.reads.changes.stamp() == before)

        // When it appends, then another connection (as another process would) commits a write of its own
        try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])])
        let appended = try #require(database.reads.changes.stamp())
        let other = try DatabaseQueue(path: folder.databasePath)
        try await other.write { db in try db.execute(sql: "CREATE TABLE elsewhere (x INTEGER); INSERT INTO elsewhere VALUES (1)") }
        try other.close()

        // Then each commit gave a new stamp
        #expect(appended != before)
        #expect(database.reads.changes.stamp() != appended)

        // And once closed there is no stamp: nothing kept may be answered any more (closing twice is harmless)
        try database.close()
        #expect(database.reads.changes.stamp() == nil)
        try database.close()
    }

    @Test func theHeaderIsReadFromSQLitesOwnMappingNotADescriptorOfOurs() async throws {
        // Given a library reached through a symbolic link (SQLite puts its -shm beside the real file)
        let folder = TemporaryFolder()
        let real = folder.url.appendingPathComponent("real.sqlite").path
        let link = folder.url.appendingPathComponent("link.sqlite").path
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let database = try LibraryDatabase(path: link)
        defer { try? database.close() }
        func descriptorsOnSharedMemory() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?.hasSuffix("/real.sqlite-shm") == true
            }.count
        }
        let before = try descriptorsOnSharedMemory()

        // When the changes are watched, and the library appends
        let stamp = try #require(database.reads.changes.stamp())
        try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])])

        // Then the stamp moved, and no descriptor was opened on any -shm file (closing one would
        // drop SQLite's own locks on it)
        #expect(database.reads.changes.stamp() != stamp)
        #expect(try descriptorsOnSharedMemory() == before)
    }

    @Test func aBookAPageAndATailWrittenByAnotherLibraryOnTheSameFileAreSeenAtOnce() async throws {
        // Given two libraries open on one file (as `serve` and a CLI command are), and a book the
        // first one has read (and so keeps), with the tail of its stream
        let folder = TemporaryFolder()
        let serving = try LibraryDatabase(path: folder.databasePath)
        defer { try? serving.close() }
        try await serving.eventStore.append([StreamAppend("s1", expected: .noStream, events: [pending(1)])])
        #expect(try await serving.catalogue.entry(Self.book)?.details.title == "Book 1")
        #expect(try await serving.catalogue.page(CatalogueQuery(), try PageRequest(limit: 5, offset: 0)).total == 1)
        #expect(try await serving.eventStore.read("s1", after: 1).isEmpty)
        #expect(try await serving.eventStore.read([("s1", 1), ("s2", 0)]).allSatisfy(\.isEmpty))

        // When the other library edits the book and adds another
        let other = try LibraryDatabase(path: folder.databasePath)
        try await other.eventStore.append([
            StreamAppend("s1", expected: .exactly(1), events: [Self.edited("Renamed")]),
            StreamAppend("s2", expected: .noStream, events: [pending(3)]),
        ])
        try other.close()

        // Then the first one answers with both changes at its next reads
        #expect(try await serving.catalogue.entry(Self.book)?.details.title == "Renamed")
        #expect(try await serving.catalogue.page(CatalogueQuery(), try PageRequest(limit: 5, offset: 0)).total == 2)
        #expect(try await serving.eventStore.read("s1", after: 1).count == 1)
        #expect(try await serving.eventStore.read([("s1", 1), ("s2", 0)]).map(\.count) == [1, 1])
    }

    @Test func aKeptAnswerIsNotGivenOnceTheLibraryIsClosed() async throws {
        // Given a book read (and kept) by a library
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath)
        try await database.eventStore.append([StreamAppend("s1", expected: .noStream, events: [pending(1)])])
        #expect(try await database.catalogue.entry(Self.book) != nil)

        // When it closes, then the same read is refused rather than answered from memory
        try database.close()
        await #expect(throws: DatabaseError.self) { try await database.catalogue.entry(Self.book) }
    }

    @Test func aMemoForgetsEverythingAtANewStampAndHoldsAtMostItsCapacity() {
        let memo = ReadMemo<Int, String>(capacity: 2)
        let first = DatabaseChanges.Stamp(a: 1, b: 0, c: 0, d: 0, e: 0, f: 0)
        let second = DatabaseChanges.Stamp(a: 2, b: 0, c: 0, d: 0, e: 0, f: 0)
        memo.keep("one", for: 1, at: first)
        memo.keep("two", for: 2, at: first)
        #expect(memo.value(1, at: first) == "one" && memo.value(2, at: first) == "two")
        memo.keep("three", for: 3, at: first)
        #expect(memo.value(3, at: first) == "three" && memo.value(1, at: first) == nil, "full: forgotten, then kept anew")
        #expect(memo.value(3, at: second) == nil)
        #expect(memo.value(3, at: first) == nil, "a look-up at a new stamp forgot what was kept before it")

        // Weighed answers: what is kept never weighs more than the capacity, and one too heavy is not kept
        let texts = ReadMemo<Int, String>(capacity: 10) { $0.count }
        texts.keep("12345", for: 1, at: first)
        texts.keep("123456", for: 2, at: first)
        #expect(texts.value(1, at: first) == nil && texts.value(2, at: first) == "123456")
        texts.keep("12345678901", for: 3, at: first)
        #expect(texts.value(3, at: first) == nil && texts.value(2, at: first) == "123456")
    }
}
