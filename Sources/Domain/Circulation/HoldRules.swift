/// A request to join a book's line as the line's rules see it: the hold, the copies on the
/// book's shelf and the line as it is.
public struct HoldPlacing: Sendable {
    public let placed: HoldPlaced
    public let onShelf: Int
    public let state: HoldQueueState
    public init(placed: HoldPlaced, onShelf: Int, state: HoldQueueState) {
        self.placed = placed
        self.onShelf = onShelf
        self.state = state
    }
}

/// The waiting list's rules, one named function each: a rejection, or nil when the rule holds.
/// `HoldQueueAggregate.decide` runs `placing`, in order, when a member asks to join the line;
/// what the member may hold at all (loans, the overdue block, the hold limit) is the patron's
/// (`PatronRules.placingHold`).
enum HoldRules {
    typealias Rule = @Sendable (HoldPlacing) -> HoldRejection?

    static let placing: [Rule] = [oncePerMember, onlyWhenNoCopyIsFree]

    /// Throws the first rejection of `placing`.
    static func check(_ placing: HoldPlacing) throws(HoldRejection) {
        for rule in Self.placing { if let rejection = rule(placing) { throw rejection } }
    }

    /// A member is in a book's line once.
    static func oncePerMember(_ p: HoldPlacing) -> HoldRejection? {
        guard let held = p.state.hold(of: p.placed.member) else { return nil }
        return .alreadyHolding(book: held.book, position: p.state.position(of: held.id))
    }

    /// A hold waits for a copy: when one is on the shelf for anyone, the member borrows it instead.
    static func onlyWhenNoCopyIsFree(_ p: HoldPlacing) -> HoldRejection? {
        let free = p.state.free(onShelf: p.onShelf)
        return free > 0 ? .copyOnShelf(book: p.placed.book, available: free) : nil
    }

    /// A copy kept for a waiting member is lent to that member only (`onShelf` before the loan).
    static func keptForOthers(onShelf: Int, _ state: HoldQueueState) -> HoldRejection? {
        guard let book = state.book, !state.ready.isEmpty, state.free(onShelf: onShelf) <= 0 else { return nil }
        return .setAsideForOthers(book: book, count: state.ready.count)
    }

    /// Copies kept for members stay until they are borrowed or their hold ends.
    static func keepsCopiesSetAside(onShelf: Int, _ state: HoldQueueState) -> HoldRejection? {
        guard let book = state.book, state.free(onShelf: onShelf) < 0 else { return nil }
        return .copiesSetAside(book: book, count: state.ready.count)
    }
}

/// Why a book's waiting list refuses a command. Each carries what a person needs to know; the
/// message catalogue (`Application/Messages`) says it.
public enum HoldRejection: Error, Equatable, Sendable {
    /// A copy is on the shelf for anyone: borrow it.
    case copyOnShelf(book: BookID, available: Int)
    /// The member is in this book's line already (at `position` while waiting; nil when a copy is kept for them).
    case alreadyHolding(book: BookID, position: Int?)
    /// Every copy on the shelf is kept for members who were waiting for it.
    case setAsideForOthers(book: BookID, count: Int)
    /// Removing copies would take copies kept for members.
    case copiesSetAside(book: BookID, count: Int)
    /// No hold with this id in this book's line.
    case noSuchHold
    /// Another member's hold has this id.
    case idInUse
}
