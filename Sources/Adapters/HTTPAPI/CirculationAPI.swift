import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// Loans and notices: the generated operations, mapped onto the circulation use cases.
extension LibraryAPI {
    var circulation: CirculationUseCases { library.circulation }

    func borrowBooks(_ input: Operations.BorrowBooks.Input) async throws -> Operations.BorrowBooks.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let books = try body.bookIds.map { id throws(NotFound) in try BookID.parse(id) }
        let loans = try await circulation.borrow.execute(books, by: principal)
        return .created(.init(headers: .init(location: Locations.ownLoans), body: .json(.init(loans, overdue: circulation.list.isOverdue))))
    }

    func listLoans(_ input: Operations.ListLoans.Input) async throws -> Operations.ListLoans.Output {
        let book = try input.query.book.map { id throws(NotFound) in try BookID.parse(id) }
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        let loans = try await library.desk.loans.execute(
            member: input.query.member, walkIn: input.query.borrower, book: book, overdueOnly: input.query.overdue ?? false, page: page,
            by: principal)
        return .ok(.init(body: .json(.init(loans, overdue: circulation.list.isOverdue))))
    }

    func returnLoan(_ input: Operations.ReturnLoan.Input) async throws -> Operations.ReturnLoan.Output {
        let id = try loanID(input.path.id)
        let returned = try await circulation.giveBack.execute(id, by: principal)
        let body = Components.Schemas.ReturnedLoan(returned, overdue: circulation.list.isOverdue(returned.loan))
        return .ok(.init(headers: .init(eTag: try await tag(id)), body: .json(body)))
    }

    func renewLoan(_ input: Operations.RenewLoan.Input) async throws -> Operations.RenewLoan.Output {
        let id = try loanID(input.path.id)
        let renewed = try await circulation.renew.execute(id, by: principal)
        return .ok(.init(headers: .init(eTag: try await tag(id)), body: .json(loan(renewed))))
    }

    func checkoutWalkIn(_ input: Operations.CheckoutWalkIn.Input) async throws -> Operations.CheckoutWalkIn.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let book = try BookID.parse(input.path.id)
        let made = try await circulation.checkout.execute(book, borrowerName: body.borrowerName, by: principal)
        return .created(.init(headers: .init(location: Locations.loans(of: book)), body: .json(loan(made))))
    }

    func myLoans(_ input: Operations.MyLoans.Input) async throws -> Operations.MyLoans.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        let loans = try await circulation.list.mine(page: page, by: principal)
        return .ok(.init(body: .json(.init(loans, overdue: circulation.list.isOverdue))))
    }

    func myNotifications(_ input: Operations.MyNotifications.Input) async throws -> Operations.MyNotifications.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        return .ok(.init(body: .json(.init(try await circulation.notices.list(page: page, by: principal)))))
    }

    func markNotificationRead(_ input: Operations.MarkNotificationRead.Input) async throws -> Operations.MarkNotificationRead.Output {
        try await circulation.notices.markRead(input.path.id, by: principal)
        return .noContent(.init())
    }

    func markAllNotificationsRead(_ input: Operations.MarkAllNotificationsRead.Input) async throws
        -> Operations.MarkAllNotificationsRead.Output
    {
        try await circulation.notices.markRead(nil, by: principal)
        return .noContent(.init())
    }

    /// A loan's `ETag`: no route reads or edits one loan under a condition, so it is read after the answer.
    private func tag(_ id: LoanID) async throws -> String { EntityTags.tag(try await library.catalogue.versions.loan(id)) }

    private func loanID(_ text: String) throws -> LoanID {
        guard let id = LoanID(text) else { throw NotFound(.loan, text) }
        return id
    }

    private func loan(_ l: LoanSummary) -> Components.Schemas.Loan {
        .init(l, overdue: circulation.list.isOverdue(l))
    }
}
