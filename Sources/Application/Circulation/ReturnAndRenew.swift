import Domain
import Foundation

/// Returns a loan (by its borrower or a librarian): the copy is available at once. Twice is fine.
public struct ReturnLoan: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: LoanID, by principal: Principal) async throws -> LoanSummary {
        let runner = deps.runner
        try await runner.retrying {
            let (loaded, loan) = try await deps.loadLoan(id, by: principal)
            let returned = try deps.decide(LoanAggregate.self, .giveBack(now: deps.now), loaded)
            guard !returned.events.isEmpty else { return }
            var decisions = [returned]
            let book = try await runner.load(BookAggregate.self, .book(loan.opened.book))
            decisions.append(book.decision(try runner.decide(loan.opened.book, .takeBack(id), book.state)))
            if let member = loan.opened.borrower {
                let patron = try await runner.load(PatronAggregate.self, .patron(member))
                decisions.append(try deps.decide(PatronAggregate.self, .end(id), patron))
            }
            try await runner.append(decisions, by: principal)
        }
        return try await deps.summary(id)
    }
}

/// Renews a loan for one more loan period from now (by its borrower or a librarian).
public struct RenewLoan: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: LoanID, by principal: Principal) async throws -> LoanSummary {
        let runner = deps.runner
        try await runner.retrying {
            let (loaded, loan) = try await deps.loadLoan(id, by: principal)
            let renewed = try deps.decide(LoanAggregate.self, .renew(now: deps.now, policy: deps.policy), loaded)
            var decisions = [renewed]
            if let member = loan.opened.borrower, case .renewed(let e)? = renewed.events.compactMap(LoanAggregate.unwrap).first {
                let patron = try await runner.load(PatronAggregate.self, .patron(member))
                let update = PatronLoan(member: member, loan: id, book: loan.opened.book, dueAt: e.dueAt)
                decisions.append(try deps.decide(PatronAggregate.self, .renew(update), patron))
            }
            try await runner.append(decisions, by: principal)
        }
        return try await deps.summary(id)
    }
}
