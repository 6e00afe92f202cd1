import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

/// `Golden/log-v3.jsonl` holds the waiting lists' stored types (issue 15): exported with `shelfmark
/// audit export` from a library driven through the hold use cases (holds placed, a copy set aside
/// and borrowed, one kept past its pickup date and expired by the scan, one cancelled, one
/// cancelled with its withdrawn book). Never edit it; it must replay forever.
@Suite("Golden log: holds")
struct GoldenHoldsLogTests {
    @Test func itReplaysIntoTheHoldsAndNoticesItRecorded() async throws {
        let folder = TemporaryFolder()
        try LibraryDatabase(path: folder.databasePath, durability: .off).close()
        let raw = try DatabaseQueue(path: folder.databasePath)
        let lines = GoldenLogTests.lines(of: "log-v3.jsonl")
        try await raw.write { db in
            for line in lines {
                let e = try JSONDecoder().decode(ExportedEvent.self, from: Data(line.utf8))
                try db.execute(
                    sql: """
                        INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                            correlation_id, causation_id, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        e.position, e.stream, e.version, e.type, e.payload, e.eventId, e.recordedAt, e.actor, e.correlationId,
                        e.causationId, e.hash,
                    ])
            }
        }
        try raw.close()

        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)  // catches the read models up from 0
        defer { try? database.close() }
        let all = HoldFilter(statuses: HoldSummary.Status.allCases)
        let holds = try await database.holds.holds(all, page: .first).items
        #expect(holds.map(\.memberName) == ["bob", "carol", "bob", "carol"])
        #expect(holds.map(\.status) == [.fulfilled, .expired, .cancelled, .cancelled])
        #expect(holds.map(\.bookTitle) == ["Dune", "Dune", "Emma", "Emma"])
        let carol = try #require(holds.last?.member)
        let notices = try await database.loans.notices(of: carol, page: .first).items
        #expect(notices.map(\.kind) == [.holdCancelled, .readyForPickup, .readyForPickup])
        #expect(try await database.catalogue.page(CatalogueQuery(), .first).items.map(\.details.title) == ["Dune"])
    }
}
