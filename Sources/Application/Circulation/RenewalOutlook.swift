import Domain
import Foundation

/// What renewing a loan would do now, and how many renewals it has left: the renewal decided as
/// `RenewLoan` decides it, with nothing recorded, so a page can say why not before anyone asks.
public struct RenewalOutlook: Equatable, Sendable {
    /// Renewals the loan has left under the loan policy.
    public let renewalsLeft: Int
    /// Why a renewal now would be refused; nil when it would be granted.
    public let refusal: LoanRefused?
}

extension ListLoans {
    /// The renewal outlook of one of the principal's loans (librarians and the operator: any loan), by the clock now.
    public func renewalOutlook(_ id: LoanID, by principal: Principal) async throws -> RenewalOutlook {
        try Authorization.require(.renewLoan, by: principal)
        let (loaded, loan) = try await deps.loadLoan(id, by: principal)
        let line = try await deps.runner.load(HoldQueueAggregate.self, .holds(loan.opened.book))
        let left = max(0, deps.policy.maxRenewals - loan.renewals)
        let command = LoanCommand.renew(now: deps.now, policy: deps.policy, waiting: line.state.waiting.count)
        do throws(LoanRejection) {
            _ = try LoanAggregate.decide(command, loaded.state)
            return RenewalOutlook(renewalsLeft: left, refusal: nil)
        } catch {
            return RenewalOutlook(renewalsLeft: left, refusal: LoanRefused(error, title: loan.opened.bookTitle))
        }
    }
}
