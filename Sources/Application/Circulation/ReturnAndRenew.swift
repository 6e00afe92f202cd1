import Domain
import Foundation

/// A loan given back, and the hold its copy now waits for when a member was in the book's line:
/// that copy goes aside for them, not back on the shelf, and whoever takes it back must be told.
public struct ReturnedLoan: Sendable {
    /// The loan, returned.
    public let loan: LoanSummary
    /// The hold the returned copy was set aside for, or nil when it went back on the shelf (or
    /// was returned before).
    public let setAsideFor: HoldSummary?
    /// True when the loan had been returned before: nothing changed, and nothing is said of the
    /// copy (a retry, a second click), whose place the first return decided.
    public let returnedBefore: Bool
}

/// Returns a loan (by its borrower, a librarian or the operator): the copy is on the shelf at once, set aside
/// for the first member in the book's line in the same append when someone waits. Twice is fine.
public struct ReturnLoan: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: LoanID, by principal: Principal) async throws -> ReturnedLoan {
        try Authorization.require(.returnLoan, by: principal)
        let runner = deps.runner
        let (setAside, returnedBefore): ([HoldID], Bool) = try await runner.transact(by: principal, anticipating: true) { transaction in
            let (loaded, loan) = try await deps.loadLoan(id, by: principal)
            let title = loan.opened.bookTitle
            guard try !transaction.decide(.giveBack(now: deps.now), on: loaded, else: { LoanRefused($0, title: title) }).isEmpty else {
                return ([], true)
            }
            let book = try await transaction.load(BookAggregate.self, .book(loan.opened.book))
            let back = try transaction.decide(.takeBack(id), on: book) { BookRefused(loan.opened.book, $0, title: title) }
            var setAside: [HoldID] = []
            if case .inCatalogue(let shelf) = BookAggregate.fold(back, from: book.state) {
                setAside = try await deps.shelve(shelf.id, onShelf: shelf.available, &transaction)
            }
            if let member = loan.opened.borrower {
                let patron = try await transaction.load(PatronAggregate.self, .patron(member))
                try transaction.decide(.end(id), on: patron, else: LoanRefused.init)
            } else {
                try await deps.endWalkIn(loan.opened, &transaction)
            }
            return (setAside, false)
        }
        // A staff member is told whom the copy is kept for; its borrower only that it was returned
        // (another member's hold is not theirs to see).
        var kept: HoldSummary?
        if let hold = setAside.first {
            let summary = try await deps.holdSummary(hold)
            kept = Authorization.mayActOn(ownedBy: summary.member, by: principal) ? summary : nil
        }
        return ReturnedLoan(loan: try await deps.summary(id), setAsideFor: kept, returnedBefore: returnedBefore)
    }
}

/// Renews a loan for one more loan period from its due date (by its borrower, a librarian or the
/// operator); refused while other members wait for the book. The book's line is read and expected
/// unchanged at the append, so a hold placed meanwhile makes the renewal decide again, and be refused.
public struct RenewLoan: Sendable {
    let deps: CirculationDependencies

    public func execute(_ id: LoanID, by principal: Principal) async throws -> LoanSummary {
        try Authorization.require(.renewLoan, by: principal)
        try await deps.runner.transact(by: principal, anticipating: true) { transaction in
            try await renew(id, by: principal, &transaction)
        }
        return try await deps.summary(id)
    }

    /// Decides the renewal of one loan within `transaction`: the loan, the patron, and the book's line checked.
    func renew(_ id: LoanID, by principal: Principal, _ transaction: inout Transaction) async throws {
        let (loaded, loan) = try await deps.loadLoan(id, by: principal)
        let line = try await transaction.load(HoldQueueAggregate.self, .holds(loan.opened.book))
        transaction.expectUnchanged(line)
        let command = LoanCommand.renew(now: deps.now, policy: deps.policy, waiting: line.state.waiting.count)
        let renewed = try transaction.decide(command, on: loaded) { LoanRefused($0, title: loan.opened.bookTitle) }
        if let member = loan.opened.borrower, case .renewed(let e)? = renewed.first {
            let patron = try await transaction.load(PatronAggregate.self, .patron(member))
            let update = PatronLoan(member: member, loan: id, book: loan.opened.book, dueAt: e.dueAt)
            try transaction.decide(.renew(update), on: patron, else: LoanRefused.init)
        }
    }
}

/// What "renew all" did with one loan: renewed (the loan as it is now), or refused and why.
public struct LoanRenewal: Equatable, Sendable {
    public let loan: LoanSummary
    /// Nil when the loan was renewed.
    public let refusal: LoanRefused?
}

/// Renews every active loan of the member that can be renewed, each on its own (one refused
/// loan renews the others all the same), and reports each: renewed, or why not.
public struct RenewAllLoans: Sendable {
    let deps: CirculationDependencies

    public func execute(by principal: Principal) async throws -> [LoanRenewal] {
        let (member, _) = try Authorization.user(.renewAllLoans, by: principal)
        let renew = RenewLoan(deps: deps)
        var report: [LoanRenewal] = []
        for loan in try await deps.loans.loans(LoanFilter(member: member)) {
            do {
                report.append(LoanRenewal(loan: try await renew.execute(loan.id, by: principal), refusal: nil))
            } catch let refused as LoanRefused {
                report.append(LoanRenewal(loan: try await deps.summary(loan.id), refusal: refused))
            }
        }
        return report
    }
}
