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

    /// A member's name in their loan is theirs (sealed with their key); a walk-in's is nobody's account.
    public var personalData: PersonalData? {
        guard case .opened(let e) = self, let borrower = e.borrower else { return nil }
        return PersonalData(subject: borrower, fields: ["borrowerName"])
    }
}

/// A copy was lent. `borrower` is nil for a walk-in borrower known by name only. A member's name
/// is their personal data: erased once they close their account.
public struct LoanOpened: Equatable, Sendable, Codable {
    public let loan: LoanID
    public let book: BookID
    public let bookTitle: String
    public let borrower: UserID?
    public let borrowerName: Personal<String>
    public let lentAt: Date
    public let dueAt: Date
    public init(loan: LoanID, book: BookID, bookTitle: String, borrower: UserID?, borrowerName: String, lentAt: Date, dueAt: Date) {
        self.loan = loan
        self.book = book
        self.bookTitle = bookTitle
        self.borrower = borrower
        self.borrowerName = .known(borrowerName)
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
    /// A copy is kept for the member (a hold's `hold.copy-set-aside`).
    case readyForPickup = "ready-for-pickup"
    /// The member's hold was cancelled because the book left the catalogue.
    case holdCancelled = "hold-cancelled"
    /// A librarian cancelled the member's hold (`HoldCancelReason.cancelledAtDesk`).
    case holdCancelledAtDesk = "hold-cancelled-at-desk"
    /// The member did not pick up the copy kept for them in time: the hold ended.
    case holdExpired = "hold-expired"

    /// The notices a loan issues itself, in the order it issues them.
    public static let ofLoans: [NoticeKind] = [.dueSoon, .overdue]
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

/// A loan's record: what was lent, to whom, until when, and the notices issued.
public struct LoanRecord: Equatable, Sendable {
    public var opened: LoanOpened
    public var dueAt: Date
    public var renewals = 0
    public var notices: Set<NoticeKind> = []
    public var id: LoanID { opened.loan }
}

/// Where a loan stands. "Overdue" is not a stored state: it depends on the time (`isOverdue(at:)`).
public enum LoanState: Equatable, Sendable {
    case absent
    /// Out with the borrower.
    case lent(LoanRecord)
    /// Back on the shelf since `at`.
    case returned(LoanRecord, at: Date)

    /// The loan's record, lent or returned; nil when there is no loan.
    public var record: LoanRecord? {
        switch self {
        case .absent: nil
        case .lent(let loan), .returned(let loan, _): loan
        }
    }

    /// When the copy came back, if it did.
    public var returnedAt: Date? {
        switch self {
        case .absent, .lent: nil
        case .returned(_, let at): at
        }
    }

    /// Whether the loan is overdue at `now`, by `LoanPolicy.isOverdue`.
    public func isOverdue(at now: Date) -> Bool {
        guard let loan = record else { return false }
        return LoanPolicy.isOverdue(dueAt: loan.dueAt, returnedAt: returnedAt, now: now)
    }

    /// The state with its record changed, lent or returned alike.
    func updating(_ change: (inout LoanRecord) -> Void) -> LoanState {
        switch self {
        case .absent: return self
        case .lent(var loan):
            change(&loan)
            return .lent(loan)
        case .returned(var loan, let at):
            change(&loan)
            return .returned(loan, at: at)
        }
    }
}

public enum LoanCommand: Equatable, Sendable {
    case open(LoanOpened)
    /// Renews for one more loan period from the due date (or from `now` if later); `waiting` is the
    /// number of members in the book's line, as the use case read it.
    case renew(now: Date, policy: LoanPolicy, waiting: Int)
    case giveBack(now: Date)
    /// Issues the notices due at `now` that were not issued before.
    case issueNotices(now: Date, policy: LoanPolicy)
}

/// Why circulation refuses a command about a loan. Each names what a person needs to know.
/// (What a member may borrow is the patron's: `PatronRejection`.)
public enum LoanRejection: Error, Equatable, Sendable {
    case noSuchLoan
    case alreadyReturned
    case renewalLimitReached(max: Int)
    case overdueCannotBeRenewed
    /// Members are waiting for the book: it goes back to the shelf for them.
    case othersWaiting(count: Int)
    /// Another loan has this id already.
    case idInUse
}

public enum LoanAggregate: Aggregate {
    public static let initial = LoanState.absent

    public static func evolve(_ state: LoanState, _ event: LoanEvent) -> LoanState {
        switch event {
        case .opened(let e): return .lent(LoanRecord(opened: e, dueAt: e.dueAt))
        case .renewed(let e):
            return state.updating {
                $0.dueAt = e.dueAt
                $0.renewals = e.renewals
                // Notices are once per loan and due date: the new date gets its own due-soon notice.
                $0.notices.remove(.dueSoon)
            }
        case .noticeIssued(let e): return state.updating { $0.notices.insert(e.kind) }
        case .returned(let e):
            switch state {
            case .absent: return state
            case .lent(let loan), .returned(let loan, _): return .returned(loan, at: e.at)
            }
        }
    }

    public static func decide(_ command: LoanCommand, _ state: LoanState) throws(LoanRejection) -> [LoanEvent] {
        switch state {
        case .absent:
            guard case .open(let opened) = command else { throw .noSuchLoan }
            return [.opened(opened)]
        case .lent(let loan): return try decide(command, lent: loan)
        case .returned(let loan, _): return try decide(command, returned: loan)
        }
    }

    private static func decide(_ command: LoanCommand, lent loan: LoanRecord) throws(LoanRejection) -> [LoanEvent] {
        switch command {
        case .open(let opened): return try reopen(opened, loan)
        case .giveBack(let now):
            return [.returned(LoanReturned(loan: loan.id, book: loan.opened.book, borrower: loan.opened.borrower, at: now))]
        case .renew(let now, let policy, let waiting):
            try LoanRules.check(LoanRules.notOverdue(loan, now), LoanRules.nobodyWaiting(waiting), LoanRules.renewalsLeft(loan, policy))
            return [.renewed(LoanRenewed(loan: loan.id, dueAt: policy.renewedDue(loan.dueAt, now: now), renewals: loan.renewals + 1))]
        case .issueNotices(let now, let policy):
            guard let member = loan.opened.borrower else { return [] }
            return NoticeKind.ofLoans.filter { kind in
                guard !loan.notices.contains(kind) else { return false }
                switch kind {
                case .overdue: return LoanPolicy.isOverdue(dueAt: loan.dueAt, returnedAt: nil, now: now)
                case .dueSoon: return policy.isDueSoon(dueAt: loan.dueAt, now: now)
                case .readyForPickup, .holdCancelled, .holdCancelledAtDesk, .holdExpired: return false
                }
            }.map {
                .noticeIssued(
                    NoticeIssued(loan: loan.id, member: member, bookTitle: loan.opened.bookTitle, kind: $0, dueAt: loan.dueAt, at: now))
            }
        }
    }

    private static func decide(_ command: LoanCommand, returned loan: LoanRecord) throws(LoanRejection) -> [LoanEvent] {
        switch command {
        case .open(let opened): return try reopen(opened, loan)
        case .giveBack: return []  // returning twice changes nothing
        case .renew: throw .alreadyReturned
        case .issueNotices: return []  // a returned loan is owed no notice
        }
    }

    /// Opening a loan that exists: nothing when it is the same loan (a repeat), else the id is taken.
    private static func reopen(_ opened: LoanOpened, _ loan: LoanRecord) throws(LoanRejection) -> [LoanEvent] {
        guard loan.opened == opened else { throw .idInUse }
        return []
    }
}

/// A loan's rules, one small function each: a rejection, or nil when the rule holds.
enum LoanRules {
    /// An overdue loan is returned, not renewed.
    static func notOverdue(_ loan: LoanRecord, _ now: Date) -> LoanRejection? {
        LoanPolicy.isOverdue(dueAt: loan.dueAt, returnedAt: nil, now: now) ? .overdueCannotBeRenewed : nil
    }

    /// A book other members wait for is not renewed: it goes back to them.
    static func nobodyWaiting(_ waiting: Int) -> LoanRejection? { waiting > 0 ? .othersWaiting(count: waiting) : nil }

    /// At most `maxRenewals` renewals.
    static func renewalsLeft(_ loan: LoanRecord, _ policy: LoanPolicy) -> LoanRejection? {
        loan.renewals < policy.maxRenewals ? nil : .renewalLimitReached(max: policy.maxRenewals)
    }

    /// Throws the first rejection of the list.
    static func check(_ rejections: LoanRejection?...) throws(LoanRejection) {
        if let first = rejections.compactMap({ $0 }).first { throw first }
    }
}
