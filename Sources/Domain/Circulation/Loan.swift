import Foundation

// The Loan aggregate: one copy lent to a member (or a walk-in borrower), renewed, returned,
// and the notices it gives rise to, each issued once.

public enum LoanEvent: Equatable, Sendable {
    case opened(LoanOpened)
    case renewed(LoanRenewed)
    case returned(LoanReturned)
    case noticeIssued(NoticeIssued)
}

/// How the log stores each case: its name, written once here, and its payload.
extension LoanEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case opened = "loan.opened.v1"
        case renewed = "loan.renewed.v1"
        case returned = "loan.returned.v1"
        case noticeIssued = "loan.notice-issued.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .opened(let e): (.opened, e)
        case .renewed(let e): (.renewed, e)
        case .returned(let e): (.returned, e)
        case .noticeIssued(let e): (.noticeIssued, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> LoanEvent {
        switch type {
        case .opened: .opened(try payload.decode())
        case .renewed: .renewed(try payload.decode())
        case .returned: .returned(try payload.decode())
        case .noticeIssued: .noticeIssued(try payload.decode())
        }
    }
}

/// A copy was lent. `borrower` is nil for a walk-in borrower known by name only.
public struct LoanOpened: Equatable, Sendable, Codable {
    public let loan: LoanID
    public let book: BookID
    public let bookTitle: String
    public let borrower: UserID?
    public let borrowerName: String
    public let lentAt: Date
    public let dueAt: Date
    public init(loan: LoanID, book: BookID, bookTitle: String, borrower: UserID?, borrowerName: String, lentAt: Date, dueAt: Date) {
        self.loan = loan
        self.book = book
        self.bookTitle = bookTitle
        self.borrower = borrower
        self.borrowerName = borrowerName
        self.lentAt = lentAt
        self.dueAt = dueAt
    }
}

/// The due date moved; `renewals` counts renewals so far.
public struct LoanRenewed: Equatable, Sendable, Codable {
    public let loan: LoanID
    public let dueAt: Date
    public let renewals: Int
    public init(loan: LoanID, dueAt: Date, renewals: Int) {
        self.loan = loan
        self.dueAt = dueAt
        self.renewals = renewals
    }
}

/// The copy came back.
public struct LoanReturned: Equatable, Sendable, Codable {
    public let loan: LoanID
    public let book: BookID
    public let borrower: UserID?
    public let at: Date
    public init(loan: LoanID, book: BookID, borrower: UserID?, at: Date) {
        self.loan = loan
        self.book = book
        self.borrower = borrower
        self.at = at
    }
}

/// What a notice is about.
public enum NoticeKind: String, Sendable, Codable, CaseIterable {
    case dueSoon = "due-soon"
    case overdue
}

/// A member was told about a loan.
public struct NoticeIssued: Equatable, Sendable, Codable {
    public let loan: LoanID
    public let member: UserID
    public let bookTitle: String
    public let kind: NoticeKind
    public let dueAt: Date
    public let at: Date
    public init(loan: LoanID, member: UserID, bookTitle: String, kind: NoticeKind, dueAt: Date, at: Date) {
        self.loan = loan
        self.member = member
        self.bookTitle = bookTitle
        self.kind = kind
        self.dueAt = dueAt
        self.at = at
    }
}

/// How lending works: the configurable numbers.
public struct LoanPolicy: Equatable, Sendable {
    public var maxActiveLoans = 5
    public var period: TimeInterval = 14 * 24 * 3600
    public var maxRenewals = 2
    public var dueSoonNotice: TimeInterval = 2 * 24 * 3600
    public init() {}
}

/// A loan as it stands.
public struct LoanRecord: Equatable, Sendable {
    public var opened: LoanOpened
    public var dueAt: Date
    public var renewals = 0
    public var notices: Set<NoticeKind> = []
    public var returnedAt: Date?
    public var id: LoanID { opened.loan }
    public func isOverdue(at now: Date) -> Bool { returnedAt == nil && now >= dueAt }
}

public enum LoanState: Equatable, Sendable {
    case absent
    case lent(LoanRecord)
}

public enum LoanCommand: Equatable, Sendable {
    case open(LoanOpened)
    case renew(now: Date, policy: LoanPolicy)
    case giveBack(now: Date)
    /// Issues the notices due at `now` that were not issued before.
    case issueNotices(now: Date, policy: LoanPolicy)
}

/// Why circulation refuses a command. Each names what a person needs to know.
public enum LoanRejection: Error, Equatable, Sendable {
    case noSuchLoan
    case alreadyReturned
    case renewalLimitReached(max: Int)
    case overdueCannotBeRenewed
    case limitReached(max: Int, active: Int, requested: Int)
    case tooManyInOneRequest(max: Int)
    case blockedByOverdue(loans: [LoanID])
    case duplicateBook(BookID)
    /// Another loan has this id already.
    case idInUse
}

public enum LoanAggregate: Aggregate {
    public static let initial = LoanState.absent

    public static func evolve(_ state: LoanState, _ event: LoanEvent) -> LoanState {
        switch (state, event) {
        case (_, .opened(let e)): return .lent(LoanRecord(opened: e, dueAt: e.dueAt))
        case (.lent(var loan), .renewed(let e)):
            loan.dueAt = e.dueAt
            loan.renewals = e.renewals
            return .lent(loan)
        case (.lent(var loan), .returned(let e)):
            loan.returnedAt = e.at
            return .lent(loan)
        case (.lent(var loan), .noticeIssued(let e)):
            loan.notices.insert(e.kind)
            return .lent(loan)
        case (.absent, _): return state
        }
    }

    public static func decide(_ command: LoanCommand, _ state: LoanState) throws(LoanRejection) -> [LoanEvent] {
        if case .open(let opened) = command {
            guard case .lent(let loan) = state else { return [.opened(opened)] }
            guard loan.opened == opened else { throw .idInUse }
            return []
        }
        guard case .lent(let loan) = state else { throw .noSuchLoan }
        switch command {
        case .open: return []
        case .giveBack(let now):
            guard loan.returnedAt == nil else { return [] }  // returning twice changes nothing
            return [.returned(LoanReturned(loan: loan.id, book: loan.opened.book, borrower: loan.opened.borrower, at: now))]
        case .renew(let now, let policy):
            guard loan.returnedAt == nil else { throw .alreadyReturned }
            guard !loan.isOverdue(at: now) else { throw .overdueCannotBeRenewed }
            guard loan.renewals < policy.maxRenewals else { throw .renewalLimitReached(max: policy.maxRenewals) }
            return [.renewed(LoanRenewed(loan: loan.id, dueAt: now.addingTimeInterval(policy.period), renewals: loan.renewals + 1))]
        case .issueNotices(let now, let policy):
            guard loan.returnedAt == nil, let member = loan.opened.borrower else { return [] }
            return NoticeKind.allCases.filter { kind in
                !loan.notices.contains(kind) && (kind == .overdue ? now >= loan.dueAt : now >= loan.dueAt.addingTimeInterval(-policy.dueSoonNotice) && now < loan.dueAt)
            }.map { .noticeIssued(NoticeIssued(loan: loan.id, member: member, bookTitle: loan.opened.bookTitle, kind: $0, dueAt: loan.dueAt, at: now)) }
        }
    }
}
