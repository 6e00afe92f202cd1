import Domain
import Foundation

extension Transaction {
    /// Keeps a book's line in step with what a librarian's events did to the book, in the same
    /// append: copies added are set aside for waiting members, copies kept for members cannot be
    /// removed, and withdrawing the book cancels every hold (each member is told). The line is
    /// expected unchanged, so a hold placed meanwhile is seen on the retry.
    mutating func followHolds(
        _ book: BookID, from state: BookState, _ events: [BookEvent], now: Date, policy: LoanPolicy
    ) async throws {
        guard !events.isEmpty, case .inCatalogue(let before) = state else { return }
        let command: HoldCommand
        switch BookAggregate.fold(events, from: state) {
        case .withdrawn: command = .withdraw(now: now)
        case .inCatalogue(let after) where after.available > before.available:
            command = .shelve(onShelf: after.available, now: now, policy: policy)
        case .inCatalogue(let after) where after.available < before.available: command = .removeCopies(onShelf: after.available)
        case .inCatalogue, .absent: return
        }
        let line = try await load(HoldQueueAggregate.self, .holds(book))
        expectUnchanged(line)
        let decided = try decide(command, on: line) { LoanRefused($0, titles: [book: before.details.title]) }
        try await endHolds(decided)
    }

    /// Records on each member's patron stream the end of the holds the line's events ended
    /// (cancelled, expired), so the hold limit counts them no more.
    mutating func endHolds(_ events: [HoldEvent]) async throws {
        for event in events {
            let member: UserID
            switch event {
            case .cancelled(let e): member = e.member
            case .expired(let e): member = e.member
            case .placed, .setAside, .fulfilled: continue
            }
            let patron = try await load(PatronAggregate.self, .patron(member))
            try decide(.endHold(event.hold), on: patron, else: LoanRefused.init)
        }
    }
}
