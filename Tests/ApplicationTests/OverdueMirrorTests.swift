import Application
import Domain
import Foundation
import SQLiteStore
import Testing

/// The loans read model's `dueBy` filter (`returned_at IS NULL AND due_at <= ?`) is the SQL mirror
/// of the domain's one definition of "overdue", `LoanPolicy.isOverdue`: on loans around the
/// boundary, both pick the same loans.
@Suite("Overdue: the SQL filter mirrors the domain rule")
struct OverdueMirrorTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000.25)
    let book = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)
    let member = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)

    /// An instant as the log stores it (whole milliseconds, `Timestamp`): the mirror holds at that
    /// precision; within one millisecond the text comparison and the Date comparison may round apart.
    func stored(_ date: Date) -> Date { try! Timestamp.parse(Timestamp.format(date)) }

    func loanID(_ n: Int) -> LoanID { LoanID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))!) }

    /// Due dates around `now` (a day, a second and a millisecond either side, and `now` itself),
    /// each once out and once returned (before, at or after its due date).
    var cases: [(due: Date, returned: Date?)] {
        let offsets: [TimeInterval] = [-86_400, -1, -0.001, 0, 0.001, 1, 86_400]
        return offsets.flatMap { offset -> [(due: Date, returned: Date?)] in
            let due = stored(now + offset)
            return [(due, nil), (due, stored(due - 1)), (due, now), (due, stored(due + 0.001))]
        }
    }

    @Test func theFilterAndTheRuleAgreeAroundTheBoundary() async throws {
        let folder = TemporaryFolder()
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        var states: [LoanID: LoanState] = [:]
        for (n, loan) in cases.enumerated() {
            let id = loanID(n + 1)
            var events: [LoanEvent] = [
                .opened(
                    LoanOpened(
                        loan: id, book: book, bookTitle: "Dune", borrower: member, borrowerName: "Ada", lentAt: now - 30 * 86_400,
                        dueAt: loan.due))
            ]
            if let at = loan.returned { events.append(.returned(LoanReturned(loan: id, book: book, borrower: member, at: at))) }
            states[id] = LoanAggregate.fold(events)
            let pending = events.enumerated().map { PendingEvent(.loan($1), metadata(n * 2 + $0)) }
            try await database.eventStore.append([StreamAppend(.loan(id), expected: .noStream, events: pending)])
        }
        let summaries = try await database.loans.loans(LoanFilter(includeReturned: true))
        #expect(summaries.count == cases.count)

        // The same instants and a few more: a millisecond and a second either side of `now`.
        for instant in [now - 1, now - 0.001, now, now + 0.001, now + 1].map(stored) {
            let byRule = Set(
                cases.enumerated().filter { LoanPolicy.isOverdue(dueAt: $1.due, returnedAt: $1.returned, now: instant) }.map {
                    loanID($0.offset + 1)
                })
            let bySQL = Set(try await database.loans.loans(LoanFilter(dueBy: instant)).map(\.id))
            let bySQLWithReturned = Set(try await database.loans.loans(LoanFilter(dueBy: instant, includeReturned: true)).map(\.id))
            #expect(bySQL == byRule, "at \(Timestamp.format(instant))")
            #expect(bySQLWithReturned == byRule, "at \(Timestamp.format(instant)), returned included")
            #expect(Set(states.filter { $1.isOverdue(at: instant) }.keys) == byRule)
            #expect(Set(summaries.filter { $0.isOverdue(at: instant) }.map(\.id)) == byRule)
            #expect(!byRule.isEmpty)
        }
        try database.close()
    }
}
