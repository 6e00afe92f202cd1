import Domain
import Foundation

/// A member joins a book's waiting list: one atomic append to the member's patron stream (the
/// hold limit, the overdue block, no hold on a book on loan) and the book's line (first come,
/// first served), with the book's stream expected unchanged (no hold while a copy is free).
public struct PlaceHold: Sendable {
    let deps: CirculationDependencies

    public func execute(_ bookID: BookID, by principal: Principal) async throws -> HoldSummary {
        let (member, _) = try Authorization.user(.placeHold, by: principal)
        let account = try await deps.accounts.account(member)
        let holdID = HoldID(deps.runner.ids.next())  // made once: a retry places the same hold
        try await deps.runner.transact(by: principal, anticipating: true) { transaction in
            let now = deps.now
            let book = try await transaction.load(BookAggregate.self, .book(bookID))
            guard case .inCatalogue(let record) = book.state else { throw NotFound(.book, bookID.description) }
            transaction.expectUnchanged(book)
            let patron = try await transaction.load(PatronAggregate.self, .patron(member))
            let hold = PatronHold(member: member, hold: holdID, book: bookID)
            do throws(PatronRejection) { try transaction.decide(.placeHold(hold, now: now, policy: deps.policy), on: patron) } catch {
                throw try await deps.titled(error, transaction).ofAHold()
            }
            let placed = HoldPlaced(
                hold: holdID, book: bookID, bookTitle: record.details.title, member: member,
                memberName: account?.displayName ?? member.description, at: now)
            let line = try await transaction.load(HoldQueueAggregate.self, .holds(bookID))
            try transaction.decide(.place(placed, onShelf: record.available), on: line) {
                LoanRefused($0, titles: [bookID: record.details.title])
            }
        }
        return try await deps.holdSummary(holdID)
    }
}

/// Cancels a hold (its member, or a librarian any): always allowed; a copy kept for it goes to
/// the next in line in the same append. Cancelling twice changes nothing.
public struct CancelHold: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: HoldID, by principal: Principal) async throws -> HoldSummary {
        try Authorization.require(.cancelHold, by: principal)
        let hold = try await deps.holdSummary(id)
        // Another member's hold is "not found", like an unknown one.
        guard Authorization.mayActOn(ownedBy: hold.member, by: principal) else { throw NotFound(.hold, id.description) }
        let atDesk = !Authorization.isOwner(hold.member, principal)
        try await deps.runner.transact(by: principal, anticipating: true) { transaction in
            let line = try await transaction.load(HoldQueueAggregate.self, .holds(hold.book))
            let events = try transaction.decide(.cancel(id, now: deps.now, policy: deps.policy, atDesk: atDesk), on: line) {
                LoanRefused($0, titles: [hold.book: hold.bookTitle])
            }
            try await transaction.endHolds(events)
        }
        return try await deps.holdSummary(id)
    }
}

/// Ends the holds whose pickup date has passed, each exactly once (the book's line is appended
/// at the version read, so a concurrent scan finds nothing left to expire): the copy goes to the
/// next in line, or back to the shelf.
public struct ExpireHolds: Sendable {
    let deps: CirculationDependencies

    /// Expires what is due by the clock; returns the number of holds expired.
    @discardableResult
    public func execute(by principal: Principal) async throws -> Int {
        try Authorization.require(.scanNotices, by: principal)
        var expired = 0
        for book in try await deps.holds.booksWithPickupOver(at: deps.now) {
            expired += try await deps.runner.transact(by: principal, anticipating: true) { transaction in
                let line = try await transaction.load(HoldQueueAggregate.self, .holds(book))
                let events = try transaction.decide(.expire(now: deps.now, policy: deps.policy), on: line) { LoanRefused($0) }
                try await transaction.endHolds(events)
                return events.filter { if case .expired = $0 { true } else { false } }.count
            }
        }
        return expired
    }
}

/// Lists holds: a member's own, and (librarians) a book's line and the copies to set aside.
public struct ListHolds: Sendable {
    let deps: CirculationDependencies

    /// One page of the principal's active holds, with their place in line or pickup date.
    public func mine(page: PageRequest = .first, by principal: Principal) async throws -> Page<HoldSummary> {
        let (member, _) = try Authorization.user(.listOwnHolds, by: principal)
        return try await deps.holds.holds(HoldFilter(member: member), page: page)
    }

    /// One page of a book's line: who, since when, in which place (librarians). An unknown book is not found.
    public func queue(of book: BookID, page: PageRequest = .first, by principal: Principal) async throws -> Page<HoldSummary> {
        try Authorization.require(.listHolds, by: principal)
        if case .absent = try await deps.runner.load(BookAggregate.self, .book(book)).state { throw NotFound(.book, book.description) }
        return try await deps.holds.holds(HoldFilter(book: book), page: page)
    }

    /// One page of the holds with a copy to keep aside for pickup, soonest pickup date first (librarians).
    public func ready(page: PageRequest = .first, by principal: Principal) async throws -> Page<HoldSummary> {
        try await active(.ready, page: page, by: principal)
    }

    /// One page of every active hold, or of those waiting or ready only (librarians).
    public func active(_ status: HoldSummary.Status? = nil, page: PageRequest = .first, by principal: Principal) async throws
        -> Page<HoldSummary>
    {
        try Authorization.require(.listHolds, by: principal)
        return try await deps.holds.holds(HoldFilter(statuses: status.map { [$0] } ?? [.waiting, .ready]), page: page)
    }
}

/// The hold use cases, as the CLI and the HTTP API both call them.
public struct HoldUseCases: Sendable {
    public let place: PlaceHold
    public let cancel: CancelHold
    public let list: ListHolds
    public let expire: ExpireHolds

    init(_ deps: CirculationDependencies) {
        place = PlaceHold(deps: deps)
        cancel = CancelHold(deps: deps)
        list = ListHolds(deps: deps)
        expire = ExpireHolds(deps: deps)
    }
}

extension CirculationDependencies {
    /// The hold, as the read model has it after a change.
    func holdSummary(_ id: HoldID) async throws -> HoldSummary {
        guard let hold = try await holds.hold(id) else { throw NotFound(.hold, id.description) }
        return hold
    }
}

extension HoldID {
    /// Parses an id a caller typed; an unparsable id names no hold.
    public static func parse(_ text: String) throws(NotFound) -> HoldID {
        guard let id = HoldID(text) else { throw NotFound(.hold, text) }
        return id
    }
}
