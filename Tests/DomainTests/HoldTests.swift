import Domain
import Foundation
import Testing

/// Given the events of a book's line, when a command, then events or a rejection.
@Suite("Holds: a book's waiting list")
struct HoldQueueTests {
    let book = BookID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!)
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 24 * 3600
    let policy = LoanPolicy()

    func member(_ n: Int) -> UserID { UserID(UUID(uuidString: String(format: "00000000-0000-0000-0002-%012x", n))!) }
    func hold(_ n: Int) -> HoldID { HoldID(UUID(uuidString: String(format: "00000000-0000-0000-0003-%012x", n))!) }
    let loan = LoanID(UUID(uuidString: "00000000-0000-0000-0000-0000000000c1")!)

    func placed(_ n: Int, at: Date? = nil) -> HoldPlaced {
        HoldPlaced(hold: hold(n), book: book, bookTitle: "Dune", member: member(n), memberName: "M\(n)", at: at ?? t0 + Double(n))
    }
    func setAside(_ n: Int, at: Date) -> HoldEvent {
        .setAside(HoldSetAside(hold: hold(n), book: book, bookTitle: "Dune", member: member(n), at: at, until: at + 3 * day))
    }
    func cancelled(_ n: Int, at: Date, _ reason: HoldCancelReason = .requested) -> HoldEvent {
        .cancelled(HoldCancelled(hold: hold(n), book: book, bookTitle: "Dune", member: member(n), at: at, reason: reason))
    }

    /// The line after members 1…n placed holds, in that order.
    func given(_ count: Int, then more: [HoldEvent] = []) -> HoldQueueState {
        HoldQueueAggregate.fold((1...max(1, count)).prefix(count).map { .placed(placed($0)) } + more)
    }

    func when(_ command: HoldCommand, _ state: HoldQueueState) -> Result<[HoldEvent], HoldRejection> {
        Result { () throws(HoldRejection) in try HoldQueueAggregate.decide(command, state) }
    }

    // Placing

    @Test func aHoldJoinsTheEndOfTheLineWhenNoCopyIsOnTheShelf() {
        #expect(when(.place(placed(3), onShelf: 0), given(2)) == .success([.placed(placed(3))]))
    }

    @Test func aCopyOnTheShelfIsBorrowedNotHeld() {
        #expect(when(.place(placed(1), onShelf: 1), given(0)) == .failure(.copyOnShelf(book: book, available: 1)))
        #expect(when(.place(placed(1), onShelf: 2), given(0)) == .failure(.copyOnShelf(book: book, available: 2)))
    }

    @Test func aCopyKeptForSomeoneElseIsNotOnTheShelfForAnyone() {
        let keptForFirst = given(1, then: [setAside(1, at: t0 + day)])
        #expect(when(.place(placed(2), onShelf: 1), keptForFirst) == .success([.placed(placed(2))]))
        #expect(when(.place(placed(2), onShelf: 2), keptForFirst) == .failure(.copyOnShelf(book: book, available: 1)))
    }

    @Test func aMemberIsInALineOnceAndIsToldWhere() {
        let again = HoldPlaced(hold: hold(9), book: book, bookTitle: "Dune", member: member(2), memberName: "M2", at: t0 + day)
        #expect(when(.place(again, onShelf: 0), given(3)) == .failure(.alreadyHolding(book: book, position: 2)))
        let ready = given(3, then: [setAside(1, at: t0 + day)])
        let firstAgain = HoldPlaced(hold: hold(9), book: book, bookTitle: "Dune", member: member(1), memberName: "M1", at: t0 + day)
        #expect(when(.place(firstAgain, onShelf: 1), ready) == .failure(.alreadyHolding(book: book, position: nil)))
    }

    @Test func placingTheSameHoldAgainDecidesNothing() {
        #expect(when(.place(placed(2), onShelf: 0), given(2)) == .success([]))
        let other = HoldPlaced(hold: hold(2), book: book, bookTitle: "Dune", member: member(7), memberName: "M7", at: t0)
        #expect(when(.place(other, onShelf: 0), given(2)) == .failure(.idInUse))
    }

    // First come, first served

    @Test func positionsFollowTheOrderOfPlacingWithoutGaps() {
        let line = given(4)
        #expect((1...4).map { line.position(of: hold($0)) } == [1, 2, 3, 4])
        let afterCancel = HoldQueueAggregate.fold([cancelled(2, at: t0 + day)], from: line)
        #expect([1, 3, 4].map { afterCancel.position(of: hold($0)) } == [1, 2, 3])
        #expect(afterCancel.position(of: hold(2)) == nil)
    }

    @Test func cancellingIsAlwaysAllowedAndOnce() throws {
        let now = t0 + day
        #expect(when(.cancel(hold(2), now: now, policy: policy), given(3)) == .success([cancelled(2, at: now)]))
        let after = HoldQueueAggregate.fold([cancelled(2, at: now)], from: given(3))
        #expect(when(.cancel(hold(2), now: now + 1, policy: policy), after) == .success([]))
        #expect(when(.cancel(hold(8), now: now, policy: policy), after) == .failure(.noSuchHold))
        // Cancelled at the desk, not by its member: recorded so, for the member's notice.
        #expect(
            when(.cancel(hold(2), now: now, policy: policy, atDesk: true), given(3)) == .success([cancelled(2, at: now, .cancelledAtDesk)]))
    }

    // Copies coming back

    @Test func aCopyBackIsSetAsideForTheFirstInLineUntilThePickupDate() {
        let now = t0 + day
        #expect(when(.shelve(onShelf: 1, now: now, policy: policy), given(3)) == .success([setAside(1, at: now)]))
        var longer = policy
        longer.pickupPeriod = 7 * day
        let kept = HoldEvent.setAside(
            HoldSetAside(hold: hold(1), book: book, bookTitle: "Dune", member: member(1), at: now, until: now + 7 * day))
        #expect(when(.shelve(onShelf: 1, now: now, policy: longer), given(3)) == .success([kept]))
        #expect(when(.shelve(onShelf: 1, now: now, policy: policy), given(0)) == .success([]))
    }

    @Test func copiesAddedAreSetAsideOnePerWaitingMember() {
        let now = t0 + day
        #expect(when(.shelve(onShelf: 2, now: now, policy: policy), given(3)) == .success([setAside(1, at: now), setAside(2, at: now)]))
        #expect(when(.shelve(onShelf: 5, now: now, policy: policy), given(2)) == .success([setAside(1, at: now), setAside(2, at: now)]))
        let oneKept = given(3, then: [setAside(1, at: now)])
        #expect(when(.shelve(onShelf: 2, now: now, policy: policy), oneKept) == .success([setAside(2, at: now)]))
    }

    // Borrowing

    @Test func theCopyKeptForAMemberIsLentToThemAloneAndFulfilsTheHold() {
        let now = t0 + day
        let kept = given(2, then: [setAside(1, at: now)])
        let fulfilled = HoldEvent.fulfilled(HoldFulfilled(hold: hold(1), book: book, member: member(1), loan: loan, at: now + 1))
        #expect(when(.borrow(member: member(1), loan: loan, onShelf: 1, now: now + 1), kept) == .success([fulfilled]))
        #expect(
            when(.borrow(member: member(2), loan: loan, onShelf: 1, now: now + 1), kept)
                == .failure(.setAsideForOthers(book: book, count: 1)))
        #expect(
            when(.borrow(member: nil, loan: loan, onShelf: 1, now: now + 1), kept) == .failure(.setAsideForOthers(book: book, count: 1)))
        #expect(when(.borrow(member: member(9), loan: loan, onShelf: 2, now: now + 1), kept) == .success([]))
        #expect(when(.borrow(member: member(9), loan: loan, onShelf: 0, now: now + 1), given(0)) == .success([]))
        let done = HoldQueueAggregate.fold([fulfilled], from: kept)
        #expect(done.line.map(\.id) == [hold(2)])
        #expect(when(.cancel(hold(1), now: now + 2, policy: policy), done) == .success([]))
    }

    @Test func cancellingAReadyHoldPassesTheCopyToTheNextInLine() {
        let now = t0 + day
        let kept = given(2, then: [setAside(1, at: now)])
        #expect(
            when(.cancel(hold(1), now: now + 1, policy: policy), kept) == .success([cancelled(1, at: now + 1), setAside(2, at: now + 1)]))
        let alone = given(1, then: [setAside(1, at: now)])
        #expect(when(.cancel(hold(1), now: now + 1, policy: policy), alone) == .success([cancelled(1, at: now + 1)]))
        // Back on the shelf: a place is refused, as the copy is free again.
        let empty = HoldQueueAggregate.fold([cancelled(1, at: now + 1)], from: alone)
        #expect(when(.place(placed(5), onShelf: 1), empty) == .failure(.copyOnShelf(book: book, available: 1)))
    }

    // Expiry

    @Test func aHoldExpiresWhenItsPickupDatePassesAndTheCopyGoesOn() {
        let now = t0 + day
        let kept = given(2, then: [setAside(1, at: now)])
        let until = now + 3 * day
        #expect(when(.expire(now: until - 0.001, policy: policy), kept) == .success([]))
        let first = expired(1, at: until)
        #expect(when(.expire(now: until, policy: policy), kept) == .success([first, setAside(2, at: until)]))
        let after = HoldQueueAggregate.fold([first, setAside(2, at: until)], from: kept)
        #expect(when(.expire(now: until + 1, policy: policy), after) == .success([]))
        let alone = given(1, then: [setAside(1, at: now)])
        #expect(when(.expire(now: until + day, policy: policy), alone) == .success([expired(1, at: until + day)]))
    }

    /// An expiry names its book, for the member's notice.
    func expired(_ n: Int, at: Date) -> HoldEvent {
        .expired(HoldExpired(hold: hold(n), book: book, member: member(n), at: at, bookTitle: "Dune"))
    }

    /// Which of the line's events tell their member, and what (one rule for every read model).
    @Test func theEventsThatTellTheMember() {
        let now = t0 + day
        #expect(HoldNotice.of(setAside(1, at: now))?.kind == .readyForPickup)
        #expect(HoldNotice.of(cancelled(1, at: now)) == nil, "a member cancelling their own hold")
        #expect(HoldNotice.of(cancelled(1, at: now, .bookWithdrawn))?.kind == .holdCancelled)
        let atDesk = HoldNotice.of(cancelled(1, at: now, .cancelledAtDesk))
        #expect(atDesk?.kind == .holdCancelledAtDesk && atDesk?.id == "\(hold(1)):hold-cancelled-at-desk" && atDesk?.bookTitle == "Dune")
        #expect(HoldNotice.of(expired(1, at: now))?.kind == .holdExpired)
        #expect(HoldNotice.of(.expired(HoldExpired(hold: hold(1), book: book, member: member(1), at: now))) == nil, "recorded before")
    }

    @Test func thePickupDateIsOverFromItsInstantOn() {
        #expect(!LoanPolicy.isPickupOver(until: t0, now: t0 - 0.001))
        #expect(LoanPolicy.isPickupOver(until: t0, now: t0))
        #expect(policy.pickupUntil(t0) == t0 + 3 * day)
    }

    // The catalogue

    @Test func withdrawingTheBookCancelsEveryHoldSayingWhy() {
        let now = t0 + day
        let line = given(2, then: [setAside(1, at: now)])
        #expect(
            when(.withdraw(now: now), line) == .success([cancelled(1, at: now, .bookWithdrawn), cancelled(2, at: now, .bookWithdrawn)]))
        #expect(when(.withdraw(now: now), given(0)) == .success([]))
    }

    @Test func copiesKeptForMembersAreNotRemoved() {
        let kept = given(2, then: [setAside(1, at: t0)])
        #expect(when(.removeCopies(onShelf: 0), kept) == .failure(.copiesSetAside(book: book, count: 1)))
        #expect(when(.removeCopies(onShelf: 1), kept) == .success([]))
        #expect(when(.removeCopies(onShelf: 0), given(2)) == .success([]))
    }
}

/// The patron's side of holds: what a member may hold.
@Suite("Holds: what a member may hold")
struct PatronHoldTests {
    let me = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 24 * 3600
    let policy = LoanPolicy()

    func book(_ n: Int) -> BookID { BookID(UUID(uuidString: String(format: "00000000-0000-0000-0001-%012x", n))!) }
    func hold(_ n: Int) -> HoldID { HoldID(UUID(uuidString: String(format: "00000000-0000-0000-0003-%012x", n))!) }
    func loan(_ n: Int) -> LoanID { LoanID(UUID(uuidString: String(format: "00000000-0000-0000-0004-%012x", n))!) }
    func onHold(_ n: Int) -> PatronHold { PatronHold(member: me, hold: hold(n), book: book(n)) }

    func when(_ command: PatronCommand, _ events: [PatronEvent]) -> Result<[PatronEvent], PatronRejection> {
        Result { () throws(PatronRejection) in try PatronAggregate.decide(command, PatronAggregate.fold(events)) }
    }

    @Test func placingAHoldIsRecordedOnce() {
        #expect(when(.placeHold(onHold(1), now: t0, policy: policy), []) == .success([.holdPlaced(onHold(1))]))
        #expect(when(.placeHold(onHold(1), now: t0, policy: policy), [.holdPlaced(onHold(1))]) == .success([]))
    }

    @Test func noHoldOnABookOnLoan() {
        let borrowed = PatronEvent.loanStarted(PatronLoan(member: me, loan: loan(1), book: book(1), dueAt: t0 + 14 * day))
        #expect(when(.placeHold(onHold(1), now: t0, policy: policy), [borrowed]) == .failure(.alreadyBorrowed(book(1))))
        #expect(when(.placeHold(onHold(2), now: t0, policy: policy), [borrowed]) == .success([.holdPlaced(onHold(2))]))
    }

    @Test func theOverdueBlockAlsoStopsHolds() {
        let late = PatronLoan(member: me, loan: loan(1), book: book(1), dueAt: t0 - day)
        #expect(
            when(.placeHold(onHold(2), now: t0, policy: policy), [.loanStarted(late)]) == .failure(.blockedByOverdue(loans: [late])))
    }

    @Test func atMostTheHoldLimitOfActiveHolds() {
        let five = (1...5).map { PatronEvent.holdPlaced(onHold($0)) }
        #expect(when(.placeHold(onHold(6), now: t0, policy: policy), five) == .failure(.holdLimitReached(max: 5)))
        let oneEnded = five + [.holdEnded(PatronHoldEnded(member: me, hold: hold(3)))]
        #expect(when(.placeHold(onHold(6), now: t0, policy: policy), oneEnded) == .success([.holdPlaced(onHold(6))]))
        var two = policy
        two.maxActiveHolds = 2
        #expect(when(.placeHold(onHold(6), now: t0, policy: two), Array(five.prefix(2))) == .failure(.holdLimitReached(max: 2)))
    }

    @Test func borrowingAHeldBookEndsTheHold() throws {
        let events = try PatronAggregate.decide(
            .borrow(member: me, loans: [loan(1): book(1)], now: t0, dueAt: t0 + 14 * day, policy: policy),
            PatronAggregate.fold([.holdPlaced(onHold(1)), .holdPlaced(onHold(2))]))
        #expect(events.last == .holdEnded(PatronHoldEnded(member: me, hold: hold(1))))
        let after = PatronAggregate.fold([.holdPlaced(onHold(1)), .holdPlaced(onHold(2))] + events)
        #expect(after.holds.keys.sorted { $0.description < $1.description } == [hold(2)])
    }

    @Test func endingAHoldTwiceDecidesNothing() {
        let ended = PatronEvent.holdEnded(PatronHoldEnded(member: me, hold: hold(1)))
        #expect(when(.endHold(hold(1)), [.holdPlaced(onHold(1))]) == .success([ended]))
        #expect(when(.endHold(hold(1)), [.holdPlaced(onHold(1)), ended]) == .success([]))
    }
}
