import Foundation

// What the HoldQueue aggregate records (HoldQueue.swift), one value per event type.

/// A member joined the book's waiting list, at its end. Their name is their personal data.
public struct HoldPlaced: Equatable, Sendable, Codable {
    public let hold: HoldID
    public let book: BookID
    public let bookTitle: String
    public let member: UserID
    public let memberName: Personal<String>
    public let at: Date
    public init(hold: HoldID, book: BookID, bookTitle: String, member: UserID, memberName: String, at: Date) {
        self.hold = hold
        self.book = book
        self.bookTitle = bookTitle
        self.member = member
        self.memberName = .known(memberName)
        self.at = at
    }
}

/// A copy on the shelf is kept for the member until `until`: ready for pickup (the member's notice).
public struct HoldSetAside: Equatable, Sendable, Codable {
    public let hold: HoldID
    public let book: BookID
    public let bookTitle: String
    public let member: UserID
    public let at: Date
    public let until: Date
    public init(hold: HoldID, book: BookID, bookTitle: String, member: UserID, at: Date, until: Date) {
        self.hold = hold
        self.book = book
        self.bookTitle = bookTitle
        self.member = member
        self.at = at
        self.until = until
    }
}

/// The member borrowed the book: the hold is done.
public struct HoldFulfilled: Equatable, Sendable, Codable {
    public let hold: HoldID
    public let book: BookID
    public let member: UserID
    public let loan: LoanID
    public let at: Date
    public init(hold: HoldID, book: BookID, member: UserID, loan: LoanID, at: Date) {
        self.hold = hold
        self.book = book
        self.member = member
        self.loan = loan
        self.at = at
    }
}

/// Why a hold was cancelled.
public enum HoldCancelReason: String, Equatable, Sendable, Codable {
    /// Its member or a librarian asked.
    case requested
    /// The book left the catalogue (the member is told).
    case bookWithdrawn = "book-withdrawn"
    /// A librarian (or the operator) cancelled another member's hold (the member is told; found by
    /// an outside walk: the member kept a "ready for pickup" notice for a copy gone to the next).
    case cancelledAtDesk = "cancelled-at-desk"
}

/// The hold left the line before it was fulfilled.
public struct HoldCancelled: Equatable, Sendable, Codable {
    public let hold: HoldID
    public let book: BookID
    public let bookTitle: String
    public let member: UserID
    public let at: Date
    public let reason: HoldCancelReason
    public init(hold: HoldID, book: BookID, bookTitle: String, member: UserID, at: Date, reason: HoldCancelReason) {
        self.hold = hold
        self.book = book
        self.bookTitle = bookTitle
        self.member = member
        self.at = at
        self.reason = reason
    }
}

/// The pickup date passed without a borrow: the hold ends and its copy goes to the next in line.
/// `bookTitle` is recorded since the member is told (nil in events written before: no notice).
public struct HoldExpired: Equatable, Sendable, Codable {
    public let hold: HoldID
    public let book: BookID
    public let member: UserID
    public let at: Date
    public let bookTitle: String?
    public init(hold: HoldID, book: BookID, member: UserID, at: Date, bookTitle: String? = nil) {
        self.hold = hold
        self.book = book
        self.member = member
        self.at = at
        self.bookTitle = bookTitle
    }
}
