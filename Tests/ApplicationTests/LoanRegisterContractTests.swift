import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The loans read model of this adapter.
    var loans: any LoanRegister { sqlite?.loans ?? postgres!.loans }
    /// The notices read model of this adapter.
    var notices: any NoticeBoard { sqlite?.loans ?? postgres!.loans }
}

/// The loans read model's contract (`LoanRegister`), on every store adapter: events go in through
/// the store, loans come out of the port in one order, filtered and paged the same way.
@Suite("Loans read model (contract)")
struct LoanRegisterContractTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let day: TimeInterval = 86_400
    static let ada = UserID(Self.uuid(0xa1))
    static let bob = UserID(Self.uuid(0xa2))
    static let dune = BookID(Self.uuid(0xb1))
    static let emma = BookID(Self.uuid(0xb2))

    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))! }
    static func loanID(_ n: Int) -> LoanID { LoanID(uuid(n)) }

    /// An instant as the log stores it (whole milliseconds, `Timestamp`).
    static func stored(_ date: Date) -> Date { try! Timestamp.parse(Timestamp.format(date)) }

    static func opened(_ n: Int, book: BookID = dune, to member: UserID? = ada, name: String = "Ada", due: Date) -> DomainEvent {
        .loan(
            .opened(
                LoanOpened(
                    loan: loanID(n), book: book, bookTitle: book == dune ? "Dune" : "Emma", borrower: member, borrowerName: name,
                    lentAt: start - 30 * day, dueAt: due)))
    }

    static func returned(_ n: Int, book: BookID = dune, by member: UserID? = ada, at: Date) -> DomainEvent {
        .loan(.returned(LoanReturned(loan: loanID(n), book: book, borrower: member, at: at)))
    }

    @Test("active loans by due date, then returned ones newest first, ties by id; pages walk that order", arguments: LibraryFactory.all)
    func order(library: LibraryFactory) async throws {
        let lib = try await library.make()
        // Appended out of id order, so the tie on a due date is broken by the id and not by arrival.
        try await lib.append(.loan(Self.loanID(3)), Self.opened(3, due: Self.start + Self.day))
        try await lib.append(.loan(Self.loanID(2)), Self.opened(2, book: Self.emma, to: Self.bob, name: "Bob", due: Self.start + Self.day))
        try await lib.append(.loan(Self.loanID(1)), Self.opened(1, due: Self.start + 5 * Self.day))
        try await lib.append(.loan(Self.loanID(6)), Self.opened(6, to: nil, name: "Mrs Hudson", due: Self.start + 4 * Self.day))
        try await lib.append(
            .loan(Self.loanID(4)), Self.opened(4, due: Self.start + 3 * Self.day), Self.returned(4, at: Self.start - 2 * Self.day))
        try await lib.append(
            .loan(Self.loanID(5)), Self.opened(5, due: Self.start + 2 * Self.day), Self.returned(5, at: Self.start - Self.day))

        let every = try await lib.loans.loans(LoanFilter(includeReturned: true))
        #expect(every.map(\.id) == [2, 3, 6, 1, 5, 4].map(Self.loanID))
        for limit in [1, 2, 4, 100] {
            let walked = try await walkPages(limit: limit) { try await lib.loans.loans(LoanFilter(includeReturned: true), page: $0) }
            #expect(walked.items == every && walked.total == 6)
        }
        let active = try await walkPages(limit: 3) { try await lib.loans.loans(LoanFilter(), page: $0) }
        #expect(active.items.map(\.id) == [2, 3, 6, 1].map(Self.loanID) && active.total == 4)
        let past = try await lib.loans.loans(LoanFilter(), page: try PageRequest(offset: 4))
        #expect(past.items.isEmpty && past.total == 4 && past.nextOffset == nil)

        let expected = LoanSummary(
            id: Self.loanID(5), book: Self.dune, bookTitle: "Dune", borrower: Self.ada, borrowerName: "Ada",
            lentAt: Self.start - 30 * Self.day,
            dueAt: Self.start + 2 * Self.day, renewals: 0, returnedAt: Self.start - Self.day)
        #expect(try await lib.loans.loan(Self.loanID(5)) == expected)
        let walkIn = try #require(try await lib.loans.loan(Self.loanID(6)))
        #expect(walkIn.borrower == nil && walkIn.borrowerName == "Mrs Hudson" && walkIn.returnedAt == nil)
        #expect(try await lib.loans.loan(Self.loanID(99)) == nil)
        await lib.postgres?.close()
    }

    @Test("filters by member, book and walk-in name (as WalkInName.key compares it)", arguments: LibraryFactory.all)
    func filters(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await lib.append(.loan(Self.loanID(1)), Self.opened(1, due: Self.start + Self.day))
        try await lib.append(
            .loan(Self.loanID(2)), Self.opened(2, book: Self.emma, due: Self.start), Self.returned(2, book: Self.emma, at: Self.start))
        try await lib.append(.loan(Self.loanID(3)), Self.opened(3, book: Self.emma, to: Self.bob, name: "Bob", due: Self.start))
        try await lib.append(.loan(Self.loanID(4)), Self.opened(4, to: nil, name: "Mrs Hudson", due: Self.start + 2 * Self.day))
        try await lib.append(.loan(Self.loanID(5)), Self.opened(5, to: nil, name: "Mr Hudson", due: Self.start))

        func ids(_ filter: LoanFilter) async throws -> [LoanID] { try await lib.loans.loans(filter).map(\.id) }
        #expect(try await ids(LoanFilter(member: Self.ada)) == [Self.loanID(1)])
        #expect(try await ids(LoanFilter(member: Self.ada, includeReturned: true)) == [1, 2].map(Self.loanID))
        #expect(try await ids(LoanFilter(book: Self.emma)) == [Self.loanID(3)])
        #expect(try await ids(LoanFilter(book: Self.emma, includeReturned: true)) == [3, 2].map(Self.loanID))
        #expect(try await ids(LoanFilter(member: Self.bob, book: Self.dune)) == [])
        for name in ["Mrs Hudson", " mrs  hudson ", "MRS HUDSON"] {
            #expect(try await ids(LoanFilter(walkIn: name)) == [Self.loanID(4)], "\(name)")
        }
        #expect(try await ids(LoanFilter(walkIn: "Ada")) == [], "a member's name is no walk-in borrower")
        #expect(try await lib.loans.loans(LoanFilter(walkIn: "mr hudson"), page: .first).total == 1)
        await lib.postgres?.close()
    }

    /// Due dates around `now` (a day, a second and a millisecond either side, and `now` itself),
    /// each once out and once returned (before, at or after its due date).
    static var boundaryCases: [(due: Date, returned: Date?)] {
        [-86_400, -1, -0.001, 0, 0.001, 1, 86_400].flatMap { (offset: TimeInterval) -> [(due: Date, returned: Date?)] in
            let due = stored(start + offset)
            return [(due, nil), (due, stored(due - 1)), (due, start), (due, stored(due + 0.001))]
        }
    }

    @Test("dueBy picks exactly the loans LoanPolicy.isOverdue calls overdue, around the boundary", arguments: LibraryFactory.all)
    func overdueMirror(library: LibraryFactory) async throws {
        let lib = try await library.make()
        for (n, loan) in Self.boundaryCases.enumerated() {
            var events = [Self.opened(n + 1, due: loan.due)]
            if let at = loan.returned { events.append(Self.returned(n + 1, at: at)) }
            try await lib.store.append([
                StreamAppend(
                    .loan(Self.loanID(n + 1)), expected: .noStream,
                    events: events.enumerated().map { PendingEvent($1, metadata(n * 2 + $0)) })
            ])
        }
        let summaries = try await lib.loans.loans(LoanFilter(includeReturned: true))
        #expect(summaries.count == Self.boundaryCases.count)
        for instant in [Self.start - 1, Self.start - 0.001, Self.start, Self.start + 0.001, Self.start + 1].map(Self.stored) {
            let byRule = Set(
                Self.boundaryCases.enumerated().filter { LoanPolicy.isOverdue(dueAt: $1.due, returnedAt: $1.returned, now: instant) }
                    .map { Self.loanID($0.offset + 1) })
            #expect(!byRule.isEmpty)
            #expect(Set(try await lib.loans.loans(LoanFilter(dueBy: instant)).map(\.id)) == byRule, "at \(Timestamp.format(instant))")
            #expect(Set(try await lib.loans.loans(LoanFilter(dueBy: instant, includeReturned: true)).map(\.id)) == byRule)
            #expect(try await lib.loans.loans(LoanFilter(dueBy: instant), page: .first).total == byRule.count)
            #expect(Set(summaries.filter { $0.isOverdue(at: instant) }.map(\.id)) == byRule)
        }
        await lib.postgres?.close()
    }

    @Test("a renewal moves the due date, a return ends the loan; names follow the member, erased on closing", arguments: LibraryFactory.all)
    func changes(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let newDue = Self.start + 20 * Self.day
        try await lib.append(
            .loan(Self.loanID(1)), Self.opened(1, due: Self.start),
            .loan(.renewed(LoanRenewed(loan: Self.loanID(1), dueAt: newDue, renewals: 1))))
        try await lib.append(.loan(Self.loanID(2)), Self.opened(2, book: Self.emma, due: Self.start))
        try await lib.append(.loan(Self.loanID(3)), Self.opened(3, to: Self.bob, name: "Bob", due: Self.start))
        let renewed = try #require(try await lib.loans.loan(Self.loanID(1)))
        #expect(renewed.dueAt == newDue && renewed.renewals == 1 && renewed.returnedAt == nil)
        #expect(try await lib.loans.loans(LoanFilter(dueBy: Self.start)).map(\.id) == [2, 3].map(Self.loanID))

        try await lib.append(.loan(Self.loanID(2)), Self.returned(2, book: Self.emma, at: Self.start + Self.day))
        #expect(try await lib.loans.loan(Self.loanID(2))?.returnedAt == Self.start + Self.day)
        try await lib.append(.user(Self.ada), .user(.profileChanged(ProfileChanged(user: Self.ada, displayName: "Ada L."))))
        try await lib.append(.user(Self.ada), .user(.profileChanged(ProfileChanged(user: Self.ada, country: "FR"))))
        try await lib.append(.user(Self.bob), .user(.closed(UserClosed(user: Self.bob))))
        let names = try await lib.loans.loans(LoanFilter(includeReturned: true)).map { "\($0.id.description.suffix(1))=\($0.borrowerName)" }
        #expect(names == ["3=", "1=Ada L.", "2=Ada L."])
        try await lib.rebuild()
        let rebuilt = try await lib.loans.loans(LoanFilter(includeReturned: true)).map {
            "\($0.id.description.suffix(1))=\($0.borrowerName)"
        }
        #expect(rebuilt == names)
        await lib.postgres?.close()
    }
}
