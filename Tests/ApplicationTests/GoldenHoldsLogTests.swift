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
        let database = try await GoldenLogTests.replay(GoldenLogTests.lines(of: "log-v3.jsonl"), into: folder)
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
