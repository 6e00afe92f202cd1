import Application
import Domain
import Foundation
import Testing

extension LibraryUnderTest {
    /// The holds read model of this adapter.
    var holds: any HoldRegister { sqlite?.holds ?? postgres!.holds }
}

/// The holds read model's contract (`HoldRegister`), on every store adapter: each book's line in
/// the order holds were placed, places counted among the waiting, the copies to set aside by
/// pickup date, and the books whose pickup date has passed.
@Suite("Holds read model (contract)")
struct HoldRegisterContractTests {
    typealias L = LoanRegisterContractTests
    static let atlas = BookID(L.uuid(0xb3))
    static func holdID(_ n: Int) -> HoldID { HoldID(L.uuid(0xd0 + n)) }
    static func member(_ n: Int) -> UserID { UserID(L.uuid(0xa0 + n)) }

    static func placed(_ n: Int, on book: BookID, by m: Int, at offset: TimeInterval = 0) -> DomainEvent {
        .hold(
            .placed(
                HoldPlaced(
                    hold: holdID(n), book: book, bookTitle: book == L.dune ? "Dune" : "Emma", member: member(m), memberName: "Member \(m)",
                    at: L.start + offset)))
    }

    static func setAside(_ n: Int, on book: BookID, for m: Int, until: Date) -> DomainEvent {
        .hold(.setAside(HoldSetAside(hold: holdID(n), book: book, bookTitle: "", member: member(m), at: L.start, until: until)))
    }

    /// Dune (2 copies in the catalogue): holds 1-5 placed in order; 1 set aside, 3 cancelled, 5
    /// fulfilled. Emma (not in the catalogue): hold 6 set aside sooner, hold 7 placed. Atlas (1
    /// copy): hold 0 placed after them but set aside until the same instant as hold 1, hold 9 expired.
    func line(_ lib: LibraryUnderTest) async throws -> (Date, Date) {
        let (soon, later) = (L.start + L.day, L.start + 3 * L.day)
        try await lib.append(
            .book(L.dune), .book(.added(BookAdded(book: L.dune, details: BookDetails(title: "Dune", authors: []), copies: 2))))
        try await lib.append(
            .book(Self.atlas), .book(.added(BookAdded(book: Self.atlas, details: BookDetails(title: "Atlas", authors: []), copies: 1))))
        let dune: [DomainEvent] = (1...5).map { Self.placed($0, on: L.dune, by: $0, at: Double($0)) }
        try await lib.append(.holds(L.dune), dune[0], dune[1], dune[2], dune[3], dune[4])
        try await lib.append(.holds(L.emma), Self.placed(6, on: L.emma, by: 1), Self.placed(7, on: L.emma, by: 2))
        try await lib.append(.holds(Self.atlas), Self.placed(9, on: Self.atlas, by: 4), Self.placed(0, on: Self.atlas, by: 3))
        try await lib.append(
            .holds(L.dune), Self.setAside(1, on: L.dune, for: 1, until: later),
            .hold(
                .cancelled(
                    HoldCancelled(
                        hold: Self.holdID(3), book: L.dune, bookTitle: "Dune", member: Self.member(3), at: L.start, reason: .requested))),
            .hold(.fulfilled(HoldFulfilled(hold: Self.holdID(5), book: L.dune, member: Self.member(5), loan: L.loanID(5), at: L.start))))
        try await lib.append(.holds(L.emma), Self.setAside(6, on: L.emma, for: 1, until: soon))
        try await lib.append(
            .holds(Self.atlas), Self.setAside(0, on: Self.atlas, for: 3, until: later),
            .hold(.expired(HoldExpired(hold: Self.holdID(9), book: Self.atlas, member: Self.member(4), at: L.start))))
        return (soon, later)
    }

    @Test("a book's line in the order placed, each waiting hold's place among the waiting, the copies owned", arguments: LibraryFactory.all)
    func bookLine(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let (_, later) = try await line(lib)
        let dune = try await lib.holds.holds(HoldFilter(book: L.dune), page: .first)
        #expect(dune.items.map(\.id) == [1, 2, 4].map(Self.holdID) && dune.total == 3)
        #expect(dune.items.map(\.position) == [nil, 1, 2])
        #expect(dune.items.map(\.status) == [.ready, .waiting, .waiting])
        #expect(dune.items.map(\.pickupUntil) == [later, nil, nil])
        #expect(dune.items.allSatisfy { $0.copies == 2 && $0.book == L.dune && $0.bookTitle == "Dune" })
        #expect(
            try await lib.holds.hold(Self.holdID(2))
                == HoldSummary(
                    id: Self.holdID(2), book: L.dune, bookTitle: "Dune", member: Self.member(2), memberName: "Member 2",
                    placedAt: L.start + 2, status: .waiting, position: 1, pickupUntil: nil, copies: 2))
        #expect(try await lib.holds.hold(Self.holdID(7))?.copies == 0, "a book the catalogue does not hold has no copies")
        #expect(try await lib.holds.hold(Self.holdID(5))?.status == .fulfilled)
        #expect(try await lib.holds.hold(Self.holdID(99)) == nil)
        let walked = try await walkPages(limit: 2) { try await lib.holds.holds(HoldFilter(book: L.dune), page: $0) }
        #expect(walked.items == dune.items)

        let ended = try await lib.holds.holds(HoldFilter(statuses: [.fulfilled, .cancelled, .expired]), page: .first)
        #expect(ended.items.map(\.id) == [3, 5, 9].map(Self.holdID) && ended.items.map(\.status) == [.cancelled, .fulfilled, .expired])
        #expect(ended.items.allSatisfy { $0.position == nil })
        let mine = try await lib.holds.holds(HoldFilter(member: Self.member(1)), page: .first)
        #expect(mine.items.map(\.id) == [1, 6].map(Self.holdID))
        let nothing = try await lib.holds.holds(HoldFilter(member: Self.member(1), book: Self.atlas), page: .first)
        #expect(nothing.items.isEmpty && nothing.total == 0)
        await lib.postgres?.close()
    }

    @Test(
        "the copies to set aside by pickup date then id; the books whose pickup is over, from the instant on", arguments: LibraryFactory.all
    )
    func readyAndPickup(library: LibraryFactory) async throws {
        let lib = try await library.make()
        let (soon, later) = try await line(lib)
        let ready = try await walkPages(limit: 2) { try await lib.holds.holds(HoldFilter(statuses: [.ready]), page: $0) }
        #expect(ready.items.map(\.id) == [6, 0, 1].map(Self.holdID) && ready.total == 3)
        #expect(ready.items.map(\.pickupUntil) == [soon, later, later])

        #expect(try await lib.holds.booksWithPickupOver(at: soon - 0.001) == [])
        #expect(try await lib.holds.booksWithPickupOver(at: soon) == [L.emma])
        let all = try await lib.holds.booksWithPickupOver(at: later)
        #expect(all == [L.dune, L.emma, Self.atlas].sorted { $0.description < $1.description })
        await lib.postgres?.close()
    }

    @Test("members' names follow their profile and are erased on closing, also after a rebuild", arguments: LibraryFactory.all)
    func names(library: LibraryFactory) async throws {
        let lib = try await library.make()
        _ = try await line(lib)
        try await lib.append(.user(Self.member(2)), .user(.profileChanged(ProfileChanged(user: Self.member(2), displayName: "Bea"))))
        try await lib.append(.user(Self.member(4)), .user(.closed(UserClosed(user: Self.member(4)))))
        func names() async throws -> [String] {
            try await lib.holds.holds(HoldFilter(book: L.dune), page: .first).items.map(\.memberName)
        }
        #expect(try await names() == ["Member 1", "Bea", ""])
        try await lib.rebuild()
        #expect(try await names() == ["Member 1", "Bea", ""])
        await lib.postgres?.close()
    }
}
