import Application
import Domain
import Foundation

// The front desk's answers, as the HTTP API and the CLI's `--json` both print them.

extension Components.Schemas.MemberRecord {
    /// A member's record; a loan is overdue as `overdue` judges it now.
    public init(_ record: MemberRecord, overdue: (LoanSummary) -> Bool) {
        self.init(user: .init(record.account), loans: record.loans.map { .init($0, overdue: overdue($0)) })
    }
}

extension Components.Schemas.DeskLoans {
    /// The books lent at the desk and the member they went to.
    public init(member: AccountSummary, loans: [LoanSummary], overdue: (LoanSummary) -> Bool) {
        self.init(member: .init(member), loans: loans.map { .init($0, overdue: overdue($0)) })
    }
}
