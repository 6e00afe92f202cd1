import Application
import Domain
import Foundation
import Testing

/// The races of issue 15 on the real SQLite store: no lock anywhere, every transition one atomic
/// multi-stream append at the versions read.
@Suite("Holds: races on the real SQLite store")
struct HoldRaceTests {
    let h: HoldLibrary
    init() throws { h = try HoldLibrary() }

    @Test func fiftyMembersPlacingHoldsAtOnceGetFiftyPlacesWithoutGaps() async throws {
        let dune = try await h.book("Dune")
        _ = try await h.circulation.checkout.execute(dune, borrowerName: "Walk-in", by: .cliOperator)
        var members: [Principal] = []
        for n in 1...50 { members.append(try await h.member("m\(n)")) }
        let place = h.holds.place
        let placed = try await withThrowingTaskGroup(of: HoldSummary.self) { group in
            for member in members { group.addTask { try await place.execute(dune, by: member) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(placed.count == 50)
        let line = try await Page.all { try await h.holds.list.queue(of: dune, page: $0, by: .cliOperator) }
        #expect(line.compactMap(\.position) == Array(1...50))
        #expect(Set(line.map(\.member)).count == 50)
        #expect(line.map(\.placedAt) == line.map(\.placedAt).sorted())
    }

    @Test func aReturnRacingABorrowBySomeoneNotFirstInLineGoesToTheFirstInLine() async throws {
        for round in 1...5 {
            let book = try await h.book("Round \(round)")
            let (ada, bob, carol) = (
                try await h.member("ada\(round)"), try await h.member("bob\(round)"), try await h.member("carol\(round)")
            )
            let loan = try await h.circulation.borrow.execute([book], by: ada)[0]
            _ = try await h.holds.place.execute(book, by: bob)
            let circulation = h.circulation
            let carolGotIt = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try await circulation.giveBack.execute(loan.id, by: ada)
                    return false
                }
                for _ in 1...4 {
                    group.addTask { (try? await circulation.borrow.execute([book], by: carol)) != nil }
                }
                return try await group.reduce(false) { $0 || $1 }
            }
            #expect(!carolGotIt, "round \(round): the copy went to someone not first in line")
            #expect(try await h.mine(bob).first?.status == .ready)
            #expect(try await h.circulation.borrow.execute([book], by: bob).count == 1)
        }
    }

    @Test func twoScannersExpiringTheSameHoldExpireItOnce() async throws {
        let dune = try await h.book("Dune")
        let (ada, bob, carol) = (try await h.member("ada"), try await h.member("bob"), try await h.member("carol"))
        let loan = try await h.circulation.borrow.execute([dune], by: ada)[0]
        _ = try await h.holds.place.execute(dune, by: bob)
        _ = try await h.holds.place.execute(dune, by: carol)
        _ = try await h.circulation.giveBack.execute(loan.id, by: ada)
        h.t.clock.advance(by: 4 * h.day)
        let expire = h.holds.expire
        let expired = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 1...8 { group.addTask { try await expire.execute(by: .system) } }
            return try await group.reduce(0, +)
        }
        #expect(expired == 1)
        let events = try await h.t.database.eventStore.read(.holds(dune))
        #expect(events.filter { if case .hold(.expired) = $0.event { true } else { false } }.count == 1)
        #expect(events.filter { if case .hold(.setAside) = $0.event { true } else { false } }.count == 2, "Bob's copy, then Carol's")
        #expect(try await h.mine(carol).first?.status == .ready)
    }

    @Test func aCancelRacingTheSetAsideLeavesTheCopyWithTheNextMemberNeverWithNobody() async throws {
        for round in 1...5 {
            let book = try await h.book("Round \(round)")
            let (ada, bob, carol) = (
                try await h.member("ada\(round)"), try await h.member("bob\(round)"), try await h.member("carol\(round)")
            )
            let loan = try await h.circulation.borrow.execute([book], by: ada)[0]
            let bobs = try await h.holds.place.execute(book, by: bob)
            _ = try await h.holds.place.execute(book, by: carol)
            let (circulation, holds) = (h.circulation, h.holds)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await circulation.giveBack.execute(loan.id, by: ada) }
                group.addTask { _ = try await holds.cancel.execute(bobs.id, by: bob) }
                try await group.waitForAll()
            }
            let line = try await h.line(book)
            #expect(line.map(\.memberName) == ["carol\(round)"] && line.first?.status == .ready, "round \(round): \(line)")
        }
    }

    @Test func aHoldPlacedWhileACopyComesBackIsNeverLeftWaitingBesideAFreeCopy() async throws {
        for round in 1...5 {
            let book = try await h.book("Round \(round)")
            let (ada, bob) = (try await h.member("ada\(round)"), try await h.member("bob\(round)"))
            let loan = try await h.circulation.borrow.execute([book], by: ada)[0]
            let (circulation, holds) = (h.circulation, h.holds)
            let placed = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try await circulation.giveBack.execute(loan.id, by: ada)
                    return false
                }
                group.addTask { (try? await holds.place.execute(book, by: bob)) != nil }
                return try await group.reduce(false) { $0 || $1 }
            }
            // Either the hold came first and the returned copy is kept for Bob, or the copy was
            // back first and the hold was refused ("borrow it").
            let mine = try await h.mine(bob)
            #expect(placed ? mine.first?.status == .ready : mine.isEmpty, "round \(round)")
        }
    }
}
