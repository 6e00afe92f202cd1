import Application
import Domain
import Foundation
import Wording

/// The audit page: the three forms, and the verdict once verified.
struct AuditView: Sendable {
    /// One check of the log.
    struct Check: Sendable {
        let name: String
        let passed: Bool
        let detail: String
    }

    var verified = false
    var passed = false
    var verdict = ""
    var checks: [Check] = []
    var historyFeedback = Feedback()
    var asOfFeedback = Feedback()
    /// The as-of form's view as chosen before (the catalogue unless the loans were).
    var loansChosen = false
    var now = Dates.localInput(Date())

    init() {}

    init(checks: [AuditCheck]) {
        verified = true
        passed = checks.allSatisfy(\.passed)
        verdict = Words.sentence(Words.catalogue.text(Confirmation.logVerified(passed)))
        let wording = Wording.reader
        self.checks = checks.map { Check(name: wording.text($0.kind), passed: $0.passed, detail: wording.text($0.finding)) }
    }

    init(historyFeedback: Feedback) { self.historyFeedback = historyFeedback }
    init(asOfFeedback: Feedback) {
        self.asOfFeedback = asOfFeedback
        loansChosen = asOfFeedback.values["view"] == "loans"
    }
}

/// One event of a history timeline: who, when, what.
struct HistoryEvent: Sendable {
    let version: Int64
    let when: String
    let whenISO: String
    let who: String
    let what: String
    let changes: [String]
    let hasChanges: Bool

    init(_ entry: HistoryEntry) {
        version = entry.version
        let date =
            (try? Date(entry.recordedAt, strategy: .iso8601))
            ?? (try? Date(entry.recordedAt, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        when = date.map(Formats(Reader.language).moment) ?? entry.recordedAt
        whenISO = entry.recordedAt
        who = Words.catalogue.text(Confirmation.actor(entry.actorName))
        what = entry.type
        changes = entry.changes.map { Words.catalogue.text(Confirmation.fieldChange($0)) }
        hasChanges = !entry.changes.isEmpty
    }
}

/// A history page.
struct HistoryView: Sendable {
    /// "History of “Dune”".
    let heading: String
    let events: [HistoryEvent]
    let pager: Pager
}

/// The catalogue or the loans as they were at a moment.
struct AsOfView: Sendable {
    /// A book as it was.
    struct Book: Sendable {
        let id: String
        let title: String
        let authors: String
        let copies: String
        let onLoan: String
    }

    /// A loan as it was.
    struct Loan: Sendable {
        let id: String
        let bookTitle: String
        let borrower: String
        let due: String
        let state: String
    }

    let heading: String
    let at: String
    let typed: String
    let loansView: Bool
    let books: [Book]
    let loans: [Loan]
    let empty: Bool

    init(_ answer: TimeTravel.Answer, at moment: Date, loans loansView: Bool, typed: String) {
        heading = Words.catalogue.text(Confirmation.asOf(moment, events: answer.events)).replacingOccurrences(
            of: ":", with: "", options: [.anchored, .backwards])
        let formats = Formats(Reader.language)
        at = formats.moment(moment)
        self.typed = typed
        self.loansView = loansView
        books = answer.books.map {
            Book(
                id: $0.id.description, title: $0.details.title, authors: $0.details.authors.joined(separator: ", "),
                copies: formats.number($0.copies),
                onLoan: formats.number($0.onLoan))
        }
        loans = answer.loans.map { loan in
            let person = loan.borrower.flatMap { answer.people[$0] }.map { Words.catalogue.text(Confirmation.actor($0)) }
            let state =
                loan.returnedAt != nil
                ? t("web.asOf.returned") : loan.isOverdue(at: moment) ? t("web.asOf.overdue") : t("web.asOf.out")
            return Loan(
                id: loan.id.description, bookTitle: loan.bookTitle, borrower: person ?? Words.catalogue.borrower(of: loan),
                due: formats.day(loan.dueAt), state: state)
        }
        empty = loansView ? loans.isEmpty : books.isEmpty
    }
}

extension Dates {
    /// A `datetime-local` input's value for `date`, in UTC (`2026-11-22T14:05`).
    static func localInput(_ date: Date) -> String { String(iso(date).prefix(16)) }
}
