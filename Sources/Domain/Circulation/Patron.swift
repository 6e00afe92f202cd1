import Foundation

// The Patron aggregate, one stream per member: the member's active loans and holds, so the loan
// and hold limits and the overdue block hold under concurrent requests (every borrow and every
// hold placed or ended appends to this stream). The rules are in PatronRules.swift.

public enum PatronEvent: Equatable, Sendable {
    case loanStarted(PatronLoan)
    case loanRenewed(PatronLoan)
    case loanEnded(PatronLoanEnded)
    case holdPlaced(PatronHold)
    case holdEnded(PatronHoldEnded)
}

/// How the log stores each case: its name, written once here, and its payload.
extension PatronEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case loanStarted = "patron.loan-started.v1"
        case loanRenewed = "patron.loan-renewed.v1"
        case loanEnded = "patron.loan-ended.v1"
        case holdPlaced = "patron.hold-placed.v1"
        case holdEnded = "patron.hold-ended.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .loanStarted(let e): (.loanStarted, e)
        case .loanRenewed(let e): (.loanRenewed, e)
        case .loanEnded(let e): (.loanEnded, e)
        case .holdPlaced(let e): (.holdPlaced, e)
        case .holdEnded(let e): (.holdEnded, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> PatronEvent {
        switch type {
        case .loanStarted: .loanStarted(try payload.decode())
        case .loanRenewed: .loanRenewed(try payload.decode())
        case .loanEnded: .loanEnded(try payload.decode())
        case .holdPlaced: .holdPlaced(try payload.decode())
        case .holdEnded: .holdEnded(try payload.decode())
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

/// A hold of the member, waiting or ready, on one book.
public struct PatronHold: Equatable, Sendable, Codable {
    public let member: UserID
    public let hold: HoldID
    public let book: BookID
    public init(member: UserID, hold: HoldID, book: BookID) {
        self.member = member
        self.hold = hold
        self.book = book
    }
}

/// A hold of the member ended: fulfilled, cancelled or expired (the book's line says which).
public struct PatronHoldEnded: Equatable, Sendable, Codable {
    public let member: UserID
    public let hold: HoldID
    public init(member: UserID, hold: HoldID) {
        self.member = member
        self.hold = hold
    }
}

public struct PatronState: Equatable, Sendable {
    public var active: [LoanID: PatronLoan] = [:]
    public var holds: [HoldID: PatronHold] = [:]
    public init(active: [LoanID: PatronLoan] = [:], holds: [HoldID: PatronHold] = [:]) {
        self.active = active
        self.holds = holds
    }

    /// Active loans past their due date at `now`, oldest due first.
    public func overdue(at now: Date) -> [PatronLoan] {
        active.values.filter { LoanPolicy.isOverdue(dueAt: $0.dueAt, returnedAt: nil, now: now) }.sorted { $0.dueAt < $1.dueAt }
    }

    /// The member's active hold on a book, if any.
    public func hold(on book: BookID) -> PatronHold? { holds.values.first { $0.book == book } }
}

public enum PatronCommand: Equatable, Sendable {
    /// Starts loans of these books (loan id per book), all due at `dueAt`.
    case borrow(member: UserID, loans: [LoanID: BookID], now: Date, dueAt: Date, policy: LoanPolicy)
    case renew(PatronLoan)
    case end(LoanID)
    /// Places a hold on a book (the book's line decides the place in it).
    case placeHold(PatronHold, now: Date, policy: LoanPolicy)
    /// Ends a hold (cancelled or expired; a borrow of the book ends it by itself).
    case endHold(HoldID)
}

public enum PatronAggregate: Aggregate {
    public static let initial = PatronState()

    public static func evolve(_ state: PatronState, _ event: PatronEvent) -> PatronState {
        var state = state
        switch event {
        case .loanStarted(let loan), .loanRenewed(let loan): state.active[loan.loan] = loan
        case .loanEnded(let e): state.active[e.loan] = nil
        case .holdPlaced(let hold): state.holds[hold.hold] = hold
        case .holdEnded(let e): state.holds[e.hold] = nil
        }
        return state
    }

    public static func decide(_ command: PatronCommand, _ state: PatronState) throws(PatronRejection) -> [PatronEvent] {
        switch command {
        case .borrow(let member, let loans, let now, let dueAt, let policy):
            try PatronRules.check(Borrowing(loans: loans, state: state, now: now, policy: policy))
            let started = loans.sorted { $0.key.description < $1.key.description }.map {
                PatronEvent.loanStarted(PatronLoan(member: member, loan: $0.key, book: $0.value, dueAt: dueAt))
            }
            // Borrowing a book the member holds is what the hold was for: it ends.
            let fulfilled = state.holds.values.filter { loans.values.contains($0.book) }.sorted {
                $0.hold.description < $1.hold.description
            }
            return started + fulfilled.map { .holdEnded(PatronHoldEnded(member: member, hold: $0.hold)) }
        case .renew(let loan):
            return state.active[loan.loan] == loan ? [] : [.loanRenewed(loan)]
        case .end(let loan):
            guard let active = state.active[loan] else { return [] }
            return [.loanEnded(PatronLoanEnded(member: active.member, loan: loan))]
        case .placeHold(let hold, let now, let policy):
            if state.holds[hold.hold] == hold { return [] }
            try PatronRules.check(HoldRequest(hold: hold, state: state, now: now, policy: policy))
            return [.holdPlaced(hold)]
        case .endHold(let id):
            guard let hold = state.holds[id] else { return [] }
            return [.holdEnded(PatronHoldEnded(member: hold.member, hold: id))]
        }
    }
}
