import Application
import Domain
import Foundation
import Wording

// Answers the contract declares inline with their operation (not under `components`), mapped
// from the application's values once, for the HTTP API and the CLI's `--json` alike.

extension Components.Schemas.ClearReport {
    /// What clearing the catalogue withdrew, and what it kept with the reason, worded by `catalogue`.
    public init(_ report: ClearReport, in catalogue: any MessageCatalogue = Wording.reader) {
        self.init(
            withdrawn: report.withdrawn.map(\.description),
            kept: report.kept.map { .init(id: $0.book.description, reason: catalogue.text($0.message)) })
    }
}

extension Operations.BorrowBooks.Output.Created.Body.JsonPayload {
    /// The loans one borrowing opened.
    public init(_ loans: [LoanSummary], overdue: (LoanSummary) -> Bool) {
        self.init(loans: loans.map { .init($0, overdue: overdue($0)) })
    }
}

extension Operations.VerifyLog.Output.Ok.Body.JsonPayload {
    /// Every check of the log; `ok` when all passed. `name` is the check's stable identifier
    /// (`hash chain`), `detail` what it found in the reader's language.
    public init(_ checks: [AuditCheck]) {
        let wording = Wording.reader
        self.init(
            ok: checks.allSatisfy(\.passed),
            checks: checks.map { .init(name: $0.kind.rawValue, passed: $0.passed, detail: wording.text($0.finding)) })
    }
}

extension Operations.AsOf.Output.Ok.Body.JsonPayload {
    /// A view of the library as it was at `moment`; a loan is overdue as judged at that moment.
    public init(_ answer: TimeTravel.Answer, at moment: Date) {
        self.init(
            events: answer.events, holds: answer.holds.map { Components.Schemas.Hold($0) },
            books: answer.books.map { Components.Schemas.Book($0) },
            loans: answer.loans.map { .init($0, overdue: $0.isOverdue(at: moment)) },
            notices: answer.notices.map(Components.Schemas.Notice.init))
    }
}

extension Components.Schemas.SignedIn {
    /// How many of the newest notices a signup or login answers with.
    public static let noticesShown = 5

    /// A new session: the account, the token (shown once) and the first page of its notices.
    public init(_ account: AccountSummary, session: SignedIn.Session, notices: NoticePage) {
        self.init(user: .init(account), token: session.token, expiresAt: session.expiresAt, notifications: .init(notices))
    }
}
