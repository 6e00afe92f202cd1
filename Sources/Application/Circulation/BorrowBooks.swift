import Domain
import Foundation

/// Lends several books to the member at once, all or nothing: the member's stream, every book's
/// stream and every new loan's stream go in one atomic append, retried on a concurrent change,
/// so no copy is ever lent twice and no member passes the limit.
public struct BorrowBooks: Sendable {
    let deps: CirculationDependencies

    public func execute(_ books: [BookID], by principal: Principal) async throws -> [LoanSummary] {
        let (member, _) = try principal.requireUser()
        guard !books.isEmpty else { throw InvalidInput("bookIds", "name at least one book") }
        let account = try await deps.accounts.account(member)
        let runner = deps.runner
        let loanIDs = try await runner.retrying { () async throws -> [LoanID] in
            let now = deps.now
            let dueAt = now.addingTimeInterval(deps.policy.period)
            let loans = books.map { ($0, LoanID(runner.ids.next())) }
            let patron = try await runner.load(PatronAggregate.self, .patron(member))
            var decisions = [try deps.decide(PatronAggregate.self, .borrow(
                member: member, loans: Dictionary(loans.map { ($1, $0) }, uniquingKeysWith: { a, _ in a }),
                now: now, dueAt: dueAt, policy: deps.policy), patron)]
            for (bookID, loanID) in loans {
                let book = try await runner.load(BookAggregate.self, .book(bookID))
                guard case .inCatalogue(let record) = book.state else { throw NotFound("book", bookID.description) }
                decisions.append(book.decision(try runner.decide(bookID, .lend(loanID), book.state)))
                let opened = LoanOpened(
                    loan: loanID, book: bookID, bookTitle: record.details.title, borrower: member,
                    borrowerName: account?.displayName ?? member.description, lentAt: now, dueAt: dueAt)
                decisions.append(try deps.decide(LoanAggregate.self, .open(opened), try await runner.load(LoanAggregate.self, .loan(loanID))))
            }
            try await runner.append(decisions, by: principal)
            return loans.map(\.1)
        }
        var summaries: [LoanSummary] = []
        for id in loanIDs { summaries.append(try await deps.summary(id)) }
        return summaries
    }
}

/// A librarian lends a copy to a named borrower without an account (walk-in checkout).
public struct CheckoutWalkIn: Sendable {
    let deps: CirculationDependencies

    public func execute(_ bookID: BookID, borrowerName raw: String, by principal: Principal) async throws -> LoanSummary {
        try principal.requireLibrarian()
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100 else { throw InvalidInput("borrowerName", "must be 1 to 100 characters") }
        if let problem = FreeText.problem(name, field: "borrowerName") { throw InvalidInput([problem]) }
        let runner = deps.runner
        let loanID = LoanID(runner.ids.next())
        try await runner.retrying {
            let now = deps.now
            let book = try await runner.load(BookAggregate.self, .book(bookID))
            guard case .inCatalogue(let record) = book.state else { throw NotFound("book", bookID.description) }
            let opened = LoanOpened(
                loan: loanID, book: bookID, bookTitle: record.details.title, borrower: nil, borrowerName: name, lentAt: now,
                dueAt: now.addingTimeInterval(deps.policy.period))
            let loan = try await runner.load(LoanAggregate.self, .loan(loanID))
            try await runner.append([
                book.decision(try runner.decide(bookID, .lend(loanID), book.state)),
                try deps.decide(LoanAggregate.self, .open(opened), loan),
            ], by: principal)
        }
        return try await deps.summary(loanID)
    }
}
