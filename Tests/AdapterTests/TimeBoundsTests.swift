import Application
import Composition
import Domain
import Foundation
import Testing

@testable import APIContract

/// Moments past the years four digits write (found by an outside test: time travel to
/// 10000-01-01 showed an empty library, its time compared as text with the stored ones), and
/// impossible ones, which Foundation's parser rolls over (30 February read as 2 March).
@Suite("Time travel at the edges of time")
struct TimeBoundsTests {
    @Test func aMomentPastYear9999SeesTheWholeLogAndOneBeforeYear0SeesNone() async throws {
        let db = TemporaryDatabase()
        var configuration = ShelfmarkConfiguration(databasePath: db.path)
        configuration.durability = .off
        let (library, _) = try Bootstrap.openLibrary(configuration)
        _ = try await library.catalogue.addBook.execute(BookDraft(title: "Dune", authors: ["F"]), copies: 1, by: .cliOperator)
        let future = Date(timeIntervalSince1970: 253_402_300_800 + 86_400)  // 10000-01-02
        let past = Date(timeIntervalSince1970: -62_167_219_200 - 86_400 * 400)  // year -2
        let later = try await library.timeTravel.execute(at: future, view: .books, by: .cliOperator)
        #expect(later.events > 0 && later.books.map(\.details.title) == ["Dune"])
        let earlier = try await library.timeTravel.execute(at: past, view: .books, by: .cliOperator)
        #expect(earlier.events == 0 && earlier.books.isEmpty)
        #expect(Timestamp.bound(future) == "9999-12-31T23:59:59.999Z" && Timestamp.bound(past) == "0000-01-01T00:00:00.000Z")
        let now = Date(timeIntervalSince1970: 1_796_108_400.25)
        #expect(Timestamp.bound(now) == Timestamp.format(now))
        // The millisecond a moment falls in, not the nearest one (found by an outside walk: a moment
        // half a millisecond before an event took it in); a millisecond read from text stays itself
        let stored = try Timestamp.parse("2026-11-29T18:13:06.128Z")
        #expect(Timestamp.bound(stored) == "2026-11-29T18:13:06.128Z")
        #expect(Timestamp.bound(stored.addingTimeInterval(-0.0005)) == "2026-11-29T18:13:06.127Z")
        #expect(Timestamp.bound(stored.addingTimeInterval(0.0009)) == "2026-11-29T18:13:06.128Z")
        #expect(Timestamp.bound(Date(timeIntervalSince1970: -0.0005)) == "1969-12-31T23:59:59.999Z")
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-02-29T10:00:00+01:00", "2026-01-01T25:00:00+00:00", "2026-01-01T12:30:60Z",
        "10000-01-01T00:00:00Z", "2026-13-01T00:00:00-05:00",
        // Nor is one followed by anything, or offset by minutes past 59 (found by an outside walk).
        "2026-01-01T12:00:00Zjunk", "2026-01-01T12:00:00ZZ", "2026-01-01T12:00:00Z+", "2026-01-01T12:00:00+00:99",
        "2026-01-01T12:00:00+24:00", "2026-01-01T12:00:00.Z", "2026-01-01T12:00:00+0100",
    ])
    func anImpossibleTimeIsRefusedNotRolledOver(_ text: String) async throws {
        #expect(throws: DecodingError.self) { try WholeSecondDates().decode(text) }
        let db = TemporaryDatabase()
        _ = try await shelfmark(["book", "add", "--title", "Dune", "--author", "F"], database: db.path)
        let asOf = try await shelfmark(["audit", "as-of", text, "books"], database: db.path)
        #expect(asOf.status == 64 && asOf.stderr.contains("must be a time in ISO 8601 form"), "\(asOf.stderr)")
    }

    @Test func aRealTimeWithAnOffsetIsRead() throws {
        #expect(try WholeSecondDates().decode("2028-02-29T10:00:00+01:00") == Date(timeIntervalSince1970: 1_835_427_600))
    }
}
