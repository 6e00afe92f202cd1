import Application
import Domain
import Foundation
import Hummingbird

/// My loans: due dates, the overdue flag, renewals left or why not, renew, renew all, return.
struct LoanPages: Sendable {
    let site: Site
    static let pageSize = 50

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/loans") { request, _ in try await loans(request) }
        router.post("/loans/renew-all") { _, _ in try await renewAll() }
        router.post("/loans/{id}/renew") { _, context in try await renew(try context.parameters.require("id")) }
        router.post("/loans/{id}/return") { _, context in try await giveBack(try context.parameters.require("id")) }
    }

    func loans(_ request: Request) async throws -> Response {
        _ = try site.visit.requireUser()
        let list = site.library.circulation.list
        let offset = Form.query(of: request).offset
        let page = try await list.mine(page: try PageRequest(limit: Self.pageSize, offset: offset), by: site.visit.principal)
        var current: [MyLoanRow] = []
        var past: [MyLoanRow] = []
        for loan in page.items {
            if loan.returnedAt == nil {
                let outlook = try await list.renewalOutlook(loan.id, by: site.visit.principal)
                current.append(MyLoanRow(loan, overdue: list.isOverdue(loan), outlook: outlook))
            } else {
                past.append(MyLoanRow(loan, overdue: false, outlook: nil))
            }
        }
        let view = LoansView(current: current, past: past, pager: Pager(page, path: "/loans", keeping: [:]))
        return site.pages.render("loans", view, title: t("web.frame.myLoans"))
    }

    func renew(_ raw: String) async throws -> Response {
        let id = try Self.loanID(raw)
        return try await site.act(to: site.back(or: "/loans")) {
            let loan = try await site.library.circulation.renew.execute(id, by: site.visit.principal)
            return t("web.loans.renewed", loan.bookTitle, Dates.day(loan.dueAt))
        }
    }

    func giveBack(_ raw: String) async throws -> Response {
        let id = try Self.loanID(raw)
        return try await site.act(to: site.back(or: "/loans")) {
            let back = try await site.library.circulation.giveBack.execute(id, by: site.visit.principal)
            if back.returnedBefore { return DeskActions.returnedBefore(back.loan) }
            let said = t("web.loans.returnedFlash", back.loan.bookTitle)
            guard let kept = back.setAsideFor else { return said }
            return said + " " + t("web.desk.setItAside", Words.catalogue.member(of: kept))
        }
    }

    /// Renews what can be renewed; the message names what was renewed and says why the rest was not.
    func renewAll() async throws -> Response {
        _ = try site.visit.requireUser()
        let report = try await site.library.circulation.renewAll.execute(by: site.visit.principal)
        let renewed = report.filter { $0.refusal == nil }.map { t("web.quoted", $0.loan.bookTitle) }
        let refusals = report.compactMap { $0.refusal.flatMap { Words.say(error: $0) } }
        guard !report.isEmpty else { return Redirect.see("/loans", flash: t("web.loans.nothingToRenew")) }
        var parts: [String] = []
        if !renewed.isEmpty { parts.append(t("web.loans.renewedAll", renewed.joined(separator: ", "))) }
        parts += refusals
        return Redirect.see("/loans", flash: parts.joined(separator: " "), refused: renewed.isEmpty)
    }

    static func loanID(_ raw: String) throws -> LoanID {
        guard let id = LoanID(raw) else { throw NotFound(.loan, raw) }
        return id
    }
}

/// One loan as a row of My loans.
struct MyLoanRow: Sendable {
    let id: String
    let book: String
    let title: String
    let lent: String
    /// "Borrowed on November 22, 2026".
    let lentOn: String
    let due: String
    let dueISO: String
    let returned: String?
    let overdue: Bool
    let canRenew: Bool
    /// "1 renewal left"; nil when renewing is refused (then `whyNot` says why).
    let renewalsLeft: String?
    let whyNot: String?

    init(_ loan: LoanSummary, overdue: Bool, outlook: RenewalOutlook?) {
        id = loan.id.description
        book = loan.book.description
        title = loan.bookTitle
        lent = Dates.day(loan.lentAt)
        lentOn = t("web.loans.lentOn", lent)
        due = Dates.day(loan.dueAt)
        dueISO = Dates.iso(loan.dueAt)
        returned = loan.returnedAt.map(Dates.day)
        self.overdue = overdue
        canRenew = outlook != nil && outlook?.refusal == nil
        renewalsLeft = outlook.flatMap {
            $0.refusal == nil ? t("web.loans.renewalsLeft", count: $0.renewalsLeft, number($0.renewalsLeft)) : nil
        }
        whyNot = outlook?.refusal.flatMap { Words.say(error: $0) }
    }
}

struct LoansView: Sendable {
    let current: [MyLoanRow]
    let past: [MyLoanRow]
    let pager: Pager
    /// Whether there is another page to link to (no empty navigation otherwise).
    let paged: Bool
    let hasCurrent: Bool
    let hasPast: Bool
    let isEmpty: Bool
    let someRenewable: Bool

    init(current: [MyLoanRow], past: [MyLoanRow], pager: Pager) {
        self.current = current
        self.past = past
        self.pager = pager
        paged = pager.previous != nil || pager.next != nil
        hasCurrent = !current.isEmpty
        hasPast = !past.isEmpty
        isEmpty = current.isEmpty && past.isEmpty
        someRenewable = current.contains { $0.canRenew }
    }
}
