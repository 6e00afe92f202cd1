import Domain
import Foundation

/// A hold as the holds read model has it.
public struct HoldSummary: Equatable, Sendable {
    /// Where a hold stands; the last three are over.
    public enum Status: String, Equatable, Sendable, CaseIterable {
        case waiting, ready, fulfilled, cancelled, expired
    }

    public let id: HoldID
    public let book: BookID
    public let bookTitle: String
    public let member: UserID
    public let memberName: String
    public let placedAt: Date
    public let status: Status
    /// The place in line among the waiting, from 1 (next); nil unless waiting.
    public let position: Int?
    /// Until when the copy is kept; nil unless ready.
    public let pickupUntil: Date?
    /// The copies the library owns of the book.
    public let copies: Int

    public init(
        id: HoldID, book: BookID, bookTitle: String, member: UserID, memberName: String, placedAt: Date, status: Status,
        position: Int?, pickupUntil: Date?, copies: Int
    ) {
        self.id = id
        self.book = book
        self.bookTitle = bookTitle
        self.member = member
        self.memberName = memberName
        self.placedAt = placedAt
        self.status = status
        self.position = position
        self.pickupUntil = pickupUntil
        self.copies = copies
    }
}

/// Which holds to list: active ones (waiting or ready) unless `statuses` says otherwise.
public struct HoldFilter: Equatable, Sendable {
    public var member: UserID?
    public var book: BookID?
    public var statuses: [HoldSummary.Status]
    public init(member: UserID? = nil, book: BookID? = nil, statuses: [HoldSummary.Status] = [.waiting, .ready]) {
        self.member = member
        self.book = book
        self.statuses = statuses
    }
}

/// The holds read model: who waits for which book, in which order.
public protocol HoldRegister: Sendable {
    /// One hold, or nil.
    func hold(_ id: HoldID) async throws -> HoldSummary?
    /// One page of the holds matching the filter, in the order they were placed (ready ones by pickup date first).
    func holds(_ filter: HoldFilter, page: PageRequest) async throws -> Page<HoldSummary>
    /// The books with a copy kept past its pickup date at `now`, for the scan to expire.
    func booksWithPickupOver(at now: Date) async throws -> [BookID]
}
