import Foundation

// The WalkIn aggregate, one stream per walk-in borrower's name (`walkin-mrshudson`): the copies
// lent at the desk to someone without an account, so the walk-in limit holds per name under
// concurrent checkouts (every walk-in checkout and its return append to this stream). Names are
// compared by `WalkInName.key`. Loans lent before these streams were kept are recorded by the
// first event written to the stream (as the ISBN claims do), so an old log needs no migration.

/// A walk-in borrower's name as the desk compares it.
public enum WalkInName {
    /// What makes `name` another borrower to `key` than the one it looks like, or nil: characters
    /// drawn as nothing, joiners included, and the Braille blank, which is drawn as nothing without
    /// being default-ignorable ("Zoë Hudson" with a zero-width joiner had a second copy of a book
    /// she had: an outside walk); letters with a plainer twin (fullwidth "Ｍｒｓ", ligatures).
    /// Spaces of every kind are one to `key`, so they are left out of the second check.
    public static func problem(_ name: String) -> FieldProblem? {
        if name.unicodeScalars.contains(where: { $0.properties.isDefaultIgnorableCodePoint || $0.value == 0x2800 }) {
            return .invisibleCharacters
        }
        let shown = String(String.UnicodeScalarView(name.unicodeScalars.filter { !$0.properties.isWhitespace }))
        return shown.precomposedStringWithCompatibilityMapping == shown.precomposedStringWithCanonicalMapping ? nil : .lookalikeCharacters
    }

    /// The name's key: composed (NFC), case-folded, with every white space removed, so
    /// "Mrs Hudson", " mrs  hudson " and "MRS HUDSON" are one borrower with one limit.
    public static func key(_ name: String) -> String {
        // ASCII is already composed; its case folding is lower-casing A–Z, its white space U+0009–U+000D and the space.
        if ASCIIText.isASCII(name) {
            return String(decoding: name.utf8.filter { !ASCIIText.isWhitespace($0) }.map(ASCIIText.folded), as: UTF8.self)
        }
        return name.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping.filter { !$0.isWhitespace }
    }
}

/// What happened to a walk-in borrower's loans. Stored in the log; never change a case's meaning.
public enum WalkInEvent: Equatable, Sendable {
    case loanStarted(WalkInLoan)
    case loanEnded(WalkInLoanEnded)
}

/// How the log stores each case: its name, written once here, and its payload.
extension WalkInEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case loanStarted = "walkin.loan-started.v1"
        case loanEnded = "walkin.loan-ended.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .loanStarted(let e): (.loanStarted, e)
        case .loanEnded(let e): (.loanEnded, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> WalkInEvent {
        switch type {
        case .loanStarted: .loanStarted(try payload.decode())
        case .loanEnded: .loanEnded(try payload.decode())
        }
    }
}

/// A copy lent to a walk-in borrower, under the name as the desk typed it.
public struct WalkInLoan: Equatable, Sendable, Codable {
    public let borrowerName: String
    public let loan: LoanID
    public let book: BookID
    public init(borrowerName: String, loan: LoanID, book: BookID) {
        self.borrowerName = borrowerName
        self.loan = loan
        self.book = book
    }
}

/// A walk-in loan ended (the copy came back).
public struct WalkInLoanEnded: Equatable, Sendable, Codable {
    public let loan: LoanID
    public init(loan: LoanID) { self.loan = loan }
}

/// The active loans of one walk-in borrower's name.
public struct WalkInState: Equatable, Sendable {
    public var active: [LoanID: WalkInLoan]
    /// Active loans the stream does not record yet (lent before walk-in streams were kept), which
    /// the first event written to the stream records first.
    public var unrecorded: [WalkInLoan]

    public init(active: [LoanID: WalkInLoan] = [:], unrecorded: [WalkInLoan] = []) {
        self.active = active
        self.unrecorded = unrecorded
    }

    /// The state of a stream never written, for a name the loans read model gives `loans` to.
    public static func lentBefore(_ loans: [WalkInLoan]) -> WalkInState {
        WalkInState(active: Dictionary(loans.map { ($0.loan, $0) }, uniquingKeysWith: { a, _ in a }), unrecorded: loans)
    }
}

/// What the desk asks of a walk-in borrower's loans.
public enum WalkInCommand: Equatable, Sendable {
    /// Lends one more copy under this name, within `max` active loans.
    case lend(WalkInLoan, max: Int)
    /// Ends a loan (the copy came back); nothing when the stream does not have it.
    case end(LoanID)
}

/// Why the desk may not lend to a walk-in borrower.
public enum WalkInRejection: Error, Equatable, Sendable {
    /// The name has `active` loans, and at most `max` are allowed.
    case limitReached(name: String, max: Int, active: Int)
    /// The name (as the desk first wrote it) has a copy of this book on loan already.
    case alreadyHasBook(name: String, book: BookID)
}

/// The WalkIn aggregate's decisions and fold.
public enum WalkInAggregate: Aggregate {
    public static let initial = WalkInState()

    public static func evolve(_ state: WalkInState, _ event: WalkInEvent) -> WalkInState {
        var state = state
        switch event {
        case .loanStarted(let e):
            state.active[e.loan] = e
            state.unrecorded.removeAll { $0.loan == e.loan }
        case .loanEnded(let e):
            state.active[e.loan] = nil
            state.unrecorded.removeAll { $0.loan == e.loan }
        }
        return state
    }

    public static func decide(_ command: WalkInCommand, _ state: WalkInState) throws(WalkInRejection) -> [WalkInEvent] {
        let events: [WalkInEvent]
        switch command {
        case .lend(let loan, let max):
            if state.active[loan.loan] != nil { return [] }
            if let rejection = oneCopyOfABook(loan, state) { throw rejection }
            if let rejection = walkInLimit(loan, state, max: max) { throw rejection }
            events = [.loanStarted(loan)]
        case .end(let loan):
            guard state.active[loan] != nil else { return [] }
            events = [.loanEnded(WalkInLoanEnded(loan: loan))]
        }
        // The first event written records the loans lent under this name before the stream was kept.
        return state.unrecorded.map { .loanStarted($0) } + events
    }

    /// The rule: a name has one copy of a book at a time, as a member has (found by an outside
    /// walk: a double click at the desk lent the same book twice to one name).
    static func oneCopyOfABook(_ loan: WalkInLoan, _ state: WalkInState) -> WalkInRejection? {
        // Named as the desk first wrote the name, not as it was typed this time.
        state.active.values.first { $0.book == loan.book }.map { .alreadyHasBook(name: $0.borrowerName, book: loan.book) }
    }

    /// The rule: a name has at most `max` copies out at once (`SHELFMARK_MAX_WALKIN_LOANS`).
    static func walkInLimit(_ loan: WalkInLoan, _ state: WalkInState, max: Int) -> WalkInRejection? {
        state.active.count + 1 > max ? .limitReached(name: loan.borrowerName, max: max, active: state.active.count) : nil
    }
}
