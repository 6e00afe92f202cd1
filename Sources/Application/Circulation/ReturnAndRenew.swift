import Domain
import Foundation

/// Returns a loan (by its borrower or a librarian): the copy is available at once. Twice is fine.
public struct ReturnLoan: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: LoanID, by principal: Principal) async throws -> LoanSummary {
        try Authorization.require(.returnLoan, by: principal)
        let runner = deps.runner
        try await runner.transact(by: principal) { transaction in
            let (loaded, loan) = try await deps.loadLoan(id, by: principal)
            let title = loan.opened.bookTitle
            guard try !transaction.decide(.giveBack(now: deps.now), on: loaded, else: { LoanRefused($0, title: title) }).isEmpty else {
                return
            }
            let book = try await transaction.load(BookAggregate.self, .book(loan.opened.book))
            try transaction.decide(.takeBack(id), on: book) { BookRefused(loan.opened.book, $0, title: title) }
            if let member = loan.opened.borrower {
                let patron = try await transaction.load(PatronAggregate.self, .patron(member))
                try transaction.decide(.end(id), on: patron, else: LoanRefused.init)
            }
        }
        return try await deps.summary(id)
    }
}

/// Renews a loan for one more loan period from now (by its borrower or a librarian).
public struct RenewLoan: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: LoanID, by principal: Principal) async throws -> LoanSummary {
        try Authorization.require(.renewLoan, by: principal)
        let runner = deps.runner
        try await runner.transact(by: principal) { transaction in
            let (loaded, loan) = try await deps.loadLoan(id, by: principal)
            let renewed = try transaction.decide(.renew(now: deps.now, policy: deps.policy), on: loaded) {
                LoanRefused($0, title: loan.opened.bookTitle)
            }
            if let member = loan.opened.borrower, case .renewed(let e)? = renewed.first {
                let patron = try await transaction.load(PatronAggregate.self, .patron(member))
                let update = PatronLoan(member: member, loan: id, book: loan.opened.book, dueAt: e.dueAt)
                try transaction.decide(.renew(update), on: patron, else: LoanRefused.init)
            }
        }
        return try await deps.summary(id)
    }
}
