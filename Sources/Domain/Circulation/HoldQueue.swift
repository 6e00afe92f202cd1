import Foundation

// The HoldQueue aggregate, one stream per book (`holds-<book>`): the book's waiting list, first
// come first served, and which copies on its shelf are set aside for whom. Every change to the
// line appends to this one stream at the version read, so members placing holds at once get
// distinct places without gaps, and a return sets its copy aside in the same append. What a
// member may hold is the patron's (`PatronRules.placingHold`); the line's rules are in
// HoldRules.swift, the values its events carry in HoldEvents.swift.

public enum HoldEvent: Equatable, Sendable {
    case placed(HoldPlaced)
    case setAside(HoldSetAside)
    case fulfilled(HoldFulfilled)
    case cancelled(HoldCancelled)
    case expired(HoldExpired)
}

/// How the log stores each case: its name, written once here, and its payload.
extension HoldEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case placed = "hold.placed.v1"
        case setAside = "hold.copy-set-aside.v1"
        case fulfilled = "hold.fulfilled.v1"
        case cancelled = "hold.cancelled.v1"
        case expired = "hold.expired.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .placed(let e): (.placed, e)
        case .setAside(let e): (.setAside, e)
        case .fulfilled(let e): (.fulfilled, e)
        case .cancelled(let e): (.cancelled, e)
        case .expired(let e): (.expired, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> HoldEvent {
        switch type {
        case .placed: .placed(try payload.decode())
        case .setAside: .setAside(try payload.decode())
        case .fulfilled: .fulfilled(try payload.decode())
        case .cancelled: .cancelled(try payload.decode())
        case .expired: .expired(try payload.decode())
        }
    }

    /// The member's name in their hold is theirs (sealed with their key).
    public var personalData: PersonalData? {
        guard case .placed(let e) = self else { return nil }
        return PersonalData(subject: e.member, fields: ["memberName"])
    }

    /// The hold the event is about.
    public var hold: HoldID {
        switch self {
        case .placed(let e): e.hold
        case .setAside(let e): e.hold
        case .fulfilled(let e): e.hold
        case .cancelled(let e): e.hold
        case .expired(let e): e.hold
        }
    }
}

/// Where one hold in the line stands.
public enum HoldStatus: Equatable, Sendable {
    /// In line for the next copy back.
    case waiting
    /// A copy is kept for the member until `until`.
    case ready(until: Date)
}

/// One active hold, in the line.
public struct QueuedHold: Equatable, Sendable {
    public let id: HoldID
    public let book: BookID
    public let member: UserID
    public let placedAt: Date
    public var status: HoldStatus

    public var isReady: Bool { status != .waiting }
}

/// A book's waiting list.
public struct HoldQueueState: Equatable, Sendable {
    public var book: BookID?
    public var bookTitle = ""
    /// Every active hold in the order placed, waiting or ready.
    public var line: [QueuedHold] = []
    /// Holds that are over (fulfilled, cancelled, expired): a command about them again decides nothing.
    public var ended: Set<HoldID> = []
    public init() {}

    /// The holds waiting for a copy, first in line first.
    public var waiting: [QueuedHold] { line.filter { !$0.isReady } }
    /// The holds with a copy kept for them.
    public var ready: [QueuedHold] { line.filter(\.isReady) }

    /// The member's active hold on this book.
    public func hold(of member: UserID) -> QueuedHold? { line.first { $0.member == member } }

    /// A waiting hold's place in line, from 1 (next); nil when it is not waiting.
    public func position(of hold: HoldID) -> Int? { waiting.firstIndex { $0.id == hold }.map { $0 + 1 } }

    /// Of `onShelf` copies on the shelf, those kept for nobody.
    public func free(onShelf: Int) -> Int { onShelf - ready.count }
}

/// What happens to a book's waiting list. `onShelf` is always the book's copies owned and not
/// lent, as the book's stream says when the use case read it.
public enum HoldCommand: Equatable, Sendable {
    /// Joins the line at its end.
    case place(HoldPlaced, onShelf: Int)
    /// Ends a hold on request (always allowed); a copy kept for it goes to the next in line.
    /// `atDesk`: asked by a librarian or the operator, not by the hold's member, who is told.
    case cancel(HoldID, now: Date, policy: LoanPolicy, atDesk: Bool = false)
    /// Copies came to the shelf (a return, copies added), which now holds `onShelf`: each copy
    /// kept for nobody is set aside for the next waiting member.
    case shelve(onShelf: Int, now: Date, policy: LoanPolicy)
    /// A member (nil: a walk-in borrower) borrows a copy, `onShelf` counted before the loan.
    case borrow(member: UserID?, loan: LoanID, onShelf: Int, now: Date)
    /// Copies leave the library, leaving `onShelf` on the shelf.
    case removeCopies(onShelf: Int)
    /// Ends every hold whose pickup date has passed; their copies go to the next in line.
    case expire(now: Date, policy: LoanPolicy)
    /// The book left the catalogue: every hold is cancelled.
    case withdraw(now: Date)
}

public enum HoldQueueAggregate: Aggregate {
    public static let initial = HoldQueueState()

    public static func evolve(_ state: HoldQueueState, _ event: HoldEvent) -> HoldQueueState {
        var state = state
        switch event {
        case .placed(let e):
            state.book = e.book
            state.bookTitle = e.bookTitle
            state.line.append(QueuedHold(id: e.hold, book: e.book, member: e.member, placedAt: e.at, status: .waiting))
        case .setAside(let e):
            if let index = state.line.firstIndex(where: { $0.id == e.hold }) { state.line[index].status = .ready(until: e.until) }
        case .fulfilled, .cancelled, .expired:
            state.line.removeAll { $0.id == event.hold }
            state.ended.insert(event.hold)
        }
        return state
    }

    public static func decide(_ command: HoldCommand, _ state: HoldQueueState) throws(HoldRejection) -> [HoldEvent] {
        switch command {
        case .place(let placed, let onShelf):
            if state.ended.contains(placed.hold) { return [] }
            if let held = state.line.first(where: { $0.id == placed.hold }) {
                guard held.member == placed.member else { throw .idInUse }
                return []
            }
            try HoldRules.check(HoldPlacing(placed: placed, onShelf: onShelf, state: state))
            return [.placed(placed)]
        case .cancel(let id, let now, let policy, let atDesk):
            guard let hold = state.line.first(where: { $0.id == id }) else {
                if state.ended.contains(id) { return [] }
                throw .noSuchHold
            }
            return passOn(
                [
                    .cancelled(
                        HoldCancelled(
                            hold: id, book: hold.book, bookTitle: state.bookTitle, member: hold.member, at: now,
                            reason: atDesk ? .cancelledAtDesk : .requested))
                ], state, now, policy
            )
        case .shelve(let onShelf, let now, let policy):
            return setAside(state.free(onShelf: onShelf), state, now, policy)
        case .borrow(let member, let loan, let onShelf, let now):
            if let member, let hold = state.hold(of: member), hold.isReady || state.free(onShelf: onShelf) > 0 {
                return [.fulfilled(HoldFulfilled(hold: hold.id, book: hold.book, member: member, loan: loan, at: now))]
            }
            if let refusal = HoldRules.keptForOthers(onShelf: onShelf, state) { throw refusal }
            return []
        case .removeCopies(let onShelf):
            if let refusal = HoldRules.keepsCopiesSetAside(onShelf: onShelf, state) { throw refusal }
            return []
        case .expire(let now, let policy):
            let over = state.ready.filter {
                guard case .ready(let until) = $0.status else { return false }
                return LoanPolicy.isPickupOver(until: until, now: now)
            }
            let ends = over.map {
                HoldEvent.expired(HoldExpired(hold: $0.id, book: $0.book, member: $0.member, at: now, bookTitle: state.bookTitle))
            }
            return passOn(ends, state, now, policy)
        case .withdraw(let now):
            return state.line.map {
                .cancelled(
                    HoldCancelled(
                        hold: $0.id, book: $0.book, bookTitle: state.bookTitle, member: $0.member, at: now, reason: .bookWithdrawn))
            }
        }
    }

    /// Ends holds, and sets the copies kept for those that were ready aside for the next in line:
    /// a copy freed this way goes to a waiting member, or back to the shelf when none waits.
    private static func passOn(_ ends: [HoldEvent], _ state: HoldQueueState, _ now: Date, _ policy: LoanPolicy) -> [HoldEvent] {
        let freed = state.ready.filter { ready in ends.contains { $0.hold == ready.id } }.count
        return ends + setAside(freed, fold(ends, from: state), now, policy)
    }

    /// Sets `count` copies aside for the first `count` waiting members, kept until the pickup date.
    private static func setAside(_ count: Int, _ state: HoldQueueState, _ now: Date, _ policy: LoanPolicy) -> [HoldEvent] {
        state.waiting.prefix(max(0, count)).map {
            .setAside(
                HoldSetAside(
                    hold: $0.id, book: $0.book, bookTitle: state.bookTitle, member: $0.member, at: now, until: policy.pickupUntil(now)))
        }
    }
}
