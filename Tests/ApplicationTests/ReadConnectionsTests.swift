import Application
import Foundation
import GRDB
import Synchronization
import Testing

@testable import SQLiteStore

/// The short reads' own connections: a read never waits for another, sees every committed write,
/// and none is left open once the library closes.
@Suite("Read connections")
struct ReadConnectionsTests {
    @Test func manyReadsAtOnceEachGetAConnectionNoneWaits() async throws {
        // Given a library, and more simultaneous reads than GRDB's pool has readers (5)
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath)
        defer { try? database.close() }
        let readers = 12
        let started = Started()

        // When each read waits, inside its transaction, until all of them are inside theirs
        let reads = try await withThrowingTaskGroup(of: (sawAll: Bool, head: Int64).self) { group in
            for _ in 0..<readers {
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        Thread.detachNewThread {
                            continuation.resume(
                                with: Result {
                                    try database.reads.read { db in
                                        started.count.withLock { $0 += 1 }
                                        let deadline = Date().addingTimeInterval(3)
                                        while started.count.withLock({ $0 }) < readers, Date() < deadline { usleep(1_000) }
                                        let sawAll = started.count.withLock { $0 } == readers
                                        return (sawAll, try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? -1)
                                    }
                                })
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then every one of them was inside a read at the same moment, and each read the log
        #expect(reads.count == readers)
        #expect(reads.allSatisfy { $0.sawAll && $0.head == 0 })
    }

    /// How many reads are inside their transaction.
    final class Started: Sendable { let count = Mutex(0) }

    @Test func aReadSeesWhatWasCommittedBeforeIt() async throws {
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath)
        defer { try? database.close() }
        #expect(try await database.headPosition() == 0)
        try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])])
        #expect(try await database.headPosition() == 1)
    }

    @Test func closingTheLibraryClosesTheReadConnectionsAndRefusesReads() async throws {
        // Given a library that served reads
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath)
        try await database.eventStore.append([StreamAppend("s", expected: .noStream, events: [pending(1)])])
        _ = try await database.headPosition()

        // When it closes
        try database.close()

        // Then a read is refused, and no file but the database itself is left: every connection
        // closed, so the last one took the WAL and its index away
        #expect(throws: DatabaseError.self) { try database.reads.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("library.sqlite") }
        #expect(!left.contains("library.sqlite-wal") && !left.contains("library.sqlite-shm"))
    }
}
