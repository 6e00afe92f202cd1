import Foundation

// The Patron aggregate, one stream per member: the member's active loans, so the loan limit
// and the overdue block hold under concurrent requests (every borrow appends to this stream).

public enum PatronEvent: Equatable, Sendable {
    case loanStarted(PatronLoan)
    case loanRenewed(PatronLoan)
    case loanEnded(PatronLoanEnded)
}

/// How the log stores each case: its name, written once here, and its payload.
extension PatronEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case loanStarted = "patron.loan-started.v1"
        case loanRenewed = "patron.loan-renewed.v1"
        case loanEnded = "patron.loan-ended.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .loanStarted(let e): (.loanStarted, e)
        case .loanRenewed(let e): (.loanRenewed, e)
        case .loanEnded(let e): (.loanEnded, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> PatronEvent {
        switch type {
        case .loanStarted: .loanStarted(try payload.decode())
        case .loanRenewed: .loanRenewed(try payload.decode())
        case .loanEnded: .loanEnded(try payload.decode())
        }
    }
}

/// A loan of the member, with its current due date.
public struct PatronLoan: Equatable, Sendable, Codable {
    public let member: UserID
    public let loan: LoanID
    public let book: BookID
    public let dueAt: Date
    public init(member: UserID, loan: LoanID, book: BookID, dueAt: Date) {
        self.member = member
        self.loan = loan
        self.book = book
        self.dueAt = dueAt
    }
}

/// A loan of the member ended (the copy came back).
public struct PatronLoanEnded: Equatable, Sendable, Codable {
    public let member: UserID
    public let loan: LoanID
    public init(member: UserID, loan: LoanID) {
        self.member = member
        self.loan = loan
    }
}

public struct PatronState: Equatable, Sendable {
    public var active: [LoanID: PatronLoan] = [:]
    public init(active: [LoanID: PatronLoan] = [:]) { self.active = active }

    /// Active loans past their due date at `now`, oldest due first.
    public func overdue(at now: Date) -> [PatronLoan] {
        active.values.filter { now >= $0.dueAt }.sorted { $0.dueAt < $1.dueAt }
    }
}

public enum PatronCommand: Equatable, Sendable {
    /// Starts loans of these books (loan id per book), all due at `dueAt`.
    case borrow(member: UserID, loans: [LoanID: BookID], now: Date, dueAt: Date, policy: LoanPolicy)
    case renew(PatronLoan)
    case end(LoanID)
}

public enum PatronAggregate: Aggregate {
    public static let initial = PatronState()

    public static func evolve(_ state: PatronState, _ event: PatronEvent) -> PatronState {
        var state = state
        switch event {
        case .loanStarted(let loan), .loanRenewed(let loan): state.active[loan.loan] = loan
        case .loanEnded(let e): state.active[e.loan] = nil
        }
        return state
    }

    public static func decide(_ command: PatronCommand, _ state: PatronState) throws(LoanRejection) -> [PatronEvent] {
        switch command {
        case .borrow(let member, let loans, let now, let dueAt, let policy):
            if let rejection = PatronRules.check(loans: loans, state: state, now: now, policy: policy) { throw rejection }
            return loans.sorted { $0.key.description < $1.key.description }.map {
                .loanStarted(PatronLoan(member: member, loan: $0.key, book: $0.value, dueAt: dueAt))
            }
        case .renew(let loan):
            return state.active[loan.loan] == loan ? [] : [.loanRenewed(loan)]
        case .end(let loan):
            guard let active = state.active[loan] else { return [] }
            return [.loanEnded(PatronLoanEnded(member: active.member, loan: loan))]
        }
    }
}

/// The borrowing rules, one small function each, run in order.
enum PatronRules {
    static func check(loans: [LoanID: BookID], state: PatronState, now: Date, policy: LoanPolicy) -> LoanRejection? {
        let rules: [() -> LoanRejection?] = [
            { loans.count > policy.maxActiveLoans ? .tooManyInOneRequest(max: policy.maxActiveLoans) : nil },
            { duplicate(Array(loans.values) + state.active.values.map(\.book)).map(LoanRejection.duplicateBook) },
            { let late = state.overdue(at: now); return late.isEmpty ? nil : .blockedByOverdue(loans: late.map(\.loan)) },
            {
                state.active.count + loans.count > policy.maxActiveLoans
                    ? .limitReached(max: policy.maxActiveLoans, active: state.active.count, requested: loans.count) : nil
            },
        ]
        return rules.lazy.compactMap { $0() }.first
    }

    /// A book asked for twice, or already borrowed by the member.
    private static func duplicate(_ books: [BookID]) -> BookID? {
        var seen: Set<BookID> = []
        return books.first { !seen.insert($0).inserted }
    }
}

extension LoanRejection: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noSuchLoan: "no such loan"
        case .alreadyReturned: "this loan was returned already"
        case .renewalLimitReached(let max): "this loan was renewed \(max) times already, the most allowed"
        case .overdueCannotBeRenewed: "an overdue loan cannot be renewed: return the book"
        case .limitReached(let max, let active, let requested):
            "you have \(active) \(active == 1 ? "loan" : "loans"), you can borrow \(Swift.max(0, max - active)) more (asked for \(requested); at most \(max) at once)"
        case .tooManyInOneRequest(let max): "at most \(max) books can be borrowed at once"
        case .blockedByOverdue(let loans): "return your overdue \(loans.count == 1 ? "loan" : "loans") first (\(loans.map(\.description).joined(separator: ", ")))"
        case .duplicateBook(let book): "book \(book) is asked for twice or already borrowed by you"
        case .idInUse: "another loan has this id"
        }
    }
}
