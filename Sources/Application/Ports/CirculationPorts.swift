import Domain
import Foundation

/// A loan as the loans read model holds it.
public struct LoanSummary: Equatable, Sendable {
    public let id: LoanID
    public let book: BookID
    public let bookTitle: String
    /// Nil for a walk-in borrower.
    public let borrower: UserID?
    public let borrowerName: String
    public let lentAt: Date
    public let dueAt: Date
    public let renewals: Int
    public let returnedAt: Date?

    public init(
        id: LoanID, book: BookID, bookTitle: String, borrower: UserID?, borrowerName: String, lentAt: Date, dueAt: Date,
        renewals: Int, returnedAt: Date?
    ) {
        self.id = id
        self.book = book
        self.bookTitle = bookTitle
        self.borrower = borrower
        self.borrowerName = borrowerName
        self.lentAt = lentAt
        self.dueAt = dueAt
        self.renewals = renewals
        self.returnedAt = returnedAt
    }

    /// Whether the loan is overdue at `now`, by the domain's one definition.
    public func isOverdue(at now: Date) -> Bool { LoanPolicy.isOverdue(dueAt: dueAt, returnedAt: returnedAt, now: now) }
}

/// Which loans to list.
public struct LoanFilter: Equatable, Sendable {
    public var member: UserID?
    public var book: BookID?
    /// Only the walk-in loans lent under this name, compared as `WalkInName.key` compares names.
    public var walkIn: String?
    /// Only active loans due at or before this instant: with `dueBy: now`, exactly the loans
    /// `LoanPolicy.isOverdue` calls overdue at `now` (an adapter's filter must mirror it).
    public var dueBy: Date?
    public var includeReturned = false
    public init(
        member: UserID? = nil, book: BookID? = nil, walkIn: String? = nil, dueBy: Date? = nil, includeReturned: Bool = false
    ) {
        self.member = member
        self.book = book
        self.walkIn = walkIn
        self.dueBy = dueBy
        self.includeReturned = includeReturned
    }
}

/// The loans read model: who has which book.
public protocol LoanRegister: Sendable {
    /// Every loan matching the filter, by due date (active first, then returned, newest first), for
    /// the library's own work (scans, privacy, replays).
    func loans(_ filter: LoanFilter) async throws -> [LoanSummary]
    /// One page of the loans matching the filter, in the same order (ties broken by loan id).
    func loans(_ filter: LoanFilter, page: PageRequest) async throws -> Page<LoanSummary>
    /// One loan, or nil.
    func loan(_ id: LoanID) async throws -> LoanSummary?
}

/// A notice as a member sees it: about a loan (due soon, overdue) or a hold (ready for pickup,
/// cancelled with its book). `dueAt` is the loan's due date, or the date until which a copy is kept.
public struct NoticeSummary: Equatable, Sendable {
    public let id: String
    public let loan: LoanID?
    public let hold: HoldID?
    public let bookTitle: String
    public let kind: NoticeKind
    public let dueAt: Date
    public let issuedAt: Date
    public let read: Bool
    public init(
        id: String, loan: LoanID?, hold: HoldID? = nil, bookTitle: String, kind: NoticeKind, dueAt: Date, issuedAt: Date, read: Bool
    ) {
        self.id = id
        self.loan = loan
        self.hold = hold
        self.bookTitle = bookTitle
        self.kind = kind
        self.dueAt = dueAt
        self.issuedAt = issuedAt
        self.read = read
    }
}

/// One page of a member's notices, with how many of all of them are unread.
public struct NoticePage: Equatable, Sendable {
    public let page: Page<NoticeSummary>
    public let unread: Int
    public init(page: Page<NoticeSummary>, unread: Int) {
        self.page = page
        self.unread = unread
    }
    /// The notices of this page.
    public var items: [NoticeSummary] { page.items }
}

/// The notices read model, per member.
public protocol NoticeBoard: Sendable {
    /// One page of a member's notices, newest first, with the number unread among all of them.
    func notices(of member: UserID, page: PageRequest) async throws -> NoticePage
    /// The ids of every notice of a member, read or not.
    func noticeIDs(of member: UserID) async throws -> [String]
}
