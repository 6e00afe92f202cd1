import Foundation

// The Patron aggregate, one stream per member: the member's active loans, so the loan limit
// and the overdue block hold under concurrent requests (every borrow appends to this stream).
// The rules a borrowing must pass are in PatronRules.swift.

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
        active.values.filter { LoanPolicy.isOverdue(dueAt: $0.dueAt, returnedAt: nil, now: now) }.sorted { $0.dueAt < $1.dueAt }
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

    public static func decide(_ command: PatronCommand, _ state: PatronState) throws(PatronRejection) -> [PatronEvent] {
        switch command {
        case .borrow(let member, let loans, let now, let dueAt, let policy):
            try PatronRules.check(Borrowing(loans: loans, state: state, now: now, policy: policy))
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
