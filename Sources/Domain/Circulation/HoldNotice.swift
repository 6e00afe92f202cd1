import Foundation

/// What a waiting-list event tells its member, in their notices: one rule for every read model that
/// keeps notices and every rebuild of them.
public struct HoldNotice: Equatable, Sendable {
    public let kind: NoticeKind
    public let hold: HoldID
    public let member: UserID
    public let bookTitle: String
    /// The date the notice names: until when a copy is kept, else when the hold ended.
    public let dueAt: Date
    public let at: Date

    /// The notice's id, one per hold and kind.
    public var id: String { "\(hold):\(kind.rawValue)" }

    /// The notice `event` gives, or nil: a copy set aside (ready until its date); a hold cancelled
    /// with its book, or at the desk; an expiry that names its book. A member cancelling their own
    /// hold is told nothing, and expiries recorded before they named the book told nobody, so
    /// older logs rebuild the notices they had.
    public static func of(_ event: HoldEvent) -> HoldNotice? {
        switch event {
        case .setAside(let e):
            HoldNotice(kind: .readyForPickup, hold: e.hold, member: e.member, bookTitle: e.bookTitle, dueAt: e.until, at: e.at)
        case .cancelled(let e) where e.reason != .requested:
            HoldNotice(
                kind: e.reason == .bookWithdrawn ? .holdCancelled : .holdCancelledAtDesk, hold: e.hold, member: e.member,
                bookTitle: e.bookTitle, dueAt: e.at, at: e.at)
        case .expired(let e):
            e.bookTitle.map { HoldNotice(kind: .holdExpired, hold: e.hold, member: e.member, bookTitle: $0, dueAt: e.at, at: e.at) }
        case .placed, .fulfilled, .cancelled:
            nil
        }
    }
}
