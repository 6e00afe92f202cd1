import Application
import Domain
import Foundation
import Hummingbird

/// The front desk: lend to a member, check out to a walk-in borrower, issue a reset code; who has
/// which book, the overdue loans, the copies to set aside for members who waited, and a book's
/// waiting list (`/desk?book=ID`).
struct DeskPages: Sendable {
    let site: Site
    static let pageSize = 20
    static let listLimit = 100

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/desk") { request, _ in try await desk(DeskQuery(Form.query(of: request))) }
    }

    /// The desk page for `query`, showing `feedback` in the form it belongs to and a reset code just issued.
    func desk(
        _ query: DeskQuery, feedback: Feedback = Feedback(), errorsIn form: DeskView.FormName? = nil, resetCode: ResetCodeView? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let by = site.visit.principal
        let find = site.library.desk.loans
        let book = try query.book.map { try BookID.parse($0) }
        let page = try PageRequest(limit: Self.pageSize, offset: query.offset)
        var (loans, filterError, status) = (Page<LoanSummary>?.none, String?.none, status)
        do {
            loans = try await find.execute(member: query.member, book: book, page: page, by: by)
        } catch let error as InvalidInput where query.member != nil {
            (filterError, status) = (Words.say(error.errors.first?.problem ?? .required), .badRequest)
        } catch let error as NotFound where query.member != nil {
            (filterError, status) = (Words.say(error.message), .notFound)
        }
        // A filter naming nobody shows every loan, with the filter's error.
        let shown: Page<LoanSummary>
        if let loans { shown = loans } else { shown = try await find.execute(book: book, page: page, by: by) }
        let overdue = try await find.execute(overdueOnly: true, page: try PageRequest(limit: Self.listLimit), by: by)
        let ready = try await site.library.circulation.holds.list.ready(page: try PageRequest(limit: Self.listLimit), by: by)
        var waiting: DeskView.WaitingList?
        if let book {
            let entry = try await site.library.catalogue.showBook.execute(book, by: by)
            let line = try await site.library.circulation.holds.list.queue(of: book, page: try PageRequest(limit: Self.listLimit), by: by)
            waiting = DeskView.WaitingList(id: book.description, title: entry.details.title, holds: line.items.map(HoldRow.init))
        }
        // Words the shelf's search refuses are said beside the find field, the shelf shown whole
        // (found by an outside walk: a whole error page said "Q: 'bogus:' is not a field…").
        let shelfPage = try PageRequest(limit: Self.pageSize)
        var findError: String?
        let shelf: Page<CatalogueEntry>
        do {
            shelf = try await site.library.catalogue.listBooks.execute(
                CatalogueQuery(sort: .title, text: query.find, availableOnly: true), page: shelfPage, by: by)
        } catch let error as InvalidInput where query.find != nil {
            (findError, status) = (Words.say(error.errors.first?.problem ?? .required), .badRequest)
            shelf = try await site.library.catalogue.listBooks.execute(
                CatalogueQuery(sort: .title, availableOnly: true), page: shelfPage, by: by)
        }
        let chosen = Set(feedback.chosenBooks + (query.book.map { [$0] } ?? []))
        let isOverdue = site.library.circulation.list.isOverdue
        var view = DeskView(
            feedback: feedback, errorsIn: form, resetCode: resetCode, query: query,
            shelf: shelf.items.map { DeskView.ShelfBook($0, chosen: chosen.contains($0.id.description)) },
            loans: shown.items.map { LoanRow($0, overdue: isOverdue($0)) },
            loansPager: Pager(shown, path: "/desk", keeping: ["member": query.member, "book": query.book, "find": query.find]),
            overdue: overdue.items.map { LoanRow($0, overdue: true) }, setAside: ready.items.map(HoldRow.init))
        view.waiting = waiting
        view.filterError = filterError
        view.findError = findError
        return site.pages.render("desk", view, title: t("web.desk.heading"), status: status)
    }
}

/// What the desk page was asked to show.
struct DeskQuery: Sendable {
    var find: String?
    var member: String?
    var book: String?
    var offset = 0

    init(_ parameters: Form) {
        func value(_ name: String) -> String? { parameters[name] }
        find = value("find")
        member = value("member")
        book = value("book")
        offset = parameters.offset
    }

    init() {}

    /// The desk page as this query shows it: where a form on it sends the librarian back. (The
    /// page's own address would not do: after a lend refused or a reset code issued, it is the
    /// POST's, and a return made from there ended on "Page not found", found by an outside test.)
    var path: String {
        let items = [("member", member), ("book", book), ("find", find)].compactMap { name, value in
            value.map { URLQueryItem(name: name, value: $0) }
        }
        var components = URLComponents()
        components.path = "/desk"
        components.queryItems = items.isEmpty ? nil : items
        return components.string ?? "/desk"
    }
}

extension Feedback {
    /// The books ticked in the refused lend form, ticked again.
    var chosenBooks: [String] { values["books"].map { $0.split(separator: " ").map(String.init) } ?? [] }
}
