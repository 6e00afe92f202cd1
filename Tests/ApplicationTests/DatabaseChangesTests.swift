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

    @Test func aMemoForgetsEverythingAtANewStampAndKeepsAtMostItsLimit() {
        let memo = ReadMemo<Int, String>(limit: 2)
        let first = DatabaseChanges.Stamp(a: 1, b: 0, c: 0, d: 0, e: 0, f: 0)
        let second = DatabaseChanges.Stamp(a: 2, b: 0, c: 0, d: 0, e: 0, f: 0)
        memo.keep("one", for: 1, at: first)
        memo.keep("two", for: 2, at: first)
        #expect(memo.value(1, at: first) == "one" && memo.value(2, at: first) == "two")
        #expect(memo.value(1, at: second) == nil)
        memo.keep("three", for: 3, at: first)
        #expect(memo.value(3, at: first) == "three" && memo.value(1, at: first) == nil, "full: forgotten, then kept anew")
        memo.keep("one again", for: 1, at: second)
        #expect(memo.value(3, at: first) == nil && memo.value(1, at: second) == "one again")
    }
}
