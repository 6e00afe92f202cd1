import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// What a librarian does at the desk: lend books to a member found by card number or email,
/// take a loan back or renew it, issue a password reset code, check a book out to a walk-in borrower.
struct DeskActions: Sendable {
    let site: Site
    let desk: DeskPages

    init(site: Site) {
        self.site = site
        desk = DeskPages(site: site)
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.post("/desk/lend") { _, _ in try await lend() }
        router.post("/desk/return") { _, _ in try await giveBack() }
        router.post("/desk/renew") { _, _ in try await renew() }
        router.post("/desk/reset-code") { _, _ in try await issueResetCode() }
        router.post("/desk/walk-in") { _, _ in try await checkOut() }
    }

    /// Where to go back to: the form's `back` when it is a page of this site.
    private func back() -> String { Redirect.local(site.form["back"], or: "/desk") }

    func lend() async throws -> Response {
        try Authorization.require(.lendAtDesk, by: site.visit.principal)
        let typed = site.form["member"] ?? ""
        let books = site.form.all("book")
        do {
            let who = DeskMember(typed: typed)
            // Both said at once: a form sent with neither is told of both (found by an outside walk).
            let missing = [("member", typed.isEmpty), ("book", books.isEmpty)].filter(\.1).map { FieldError($0.0, .required) }
            guard missing.isEmpty else { throw InvalidInput(missing) }
            let ids = try books.map { try BookID.parse($0) }
            let (member, loans) = try await site.library.desk.lend.execute(to: who, books: ids, by: site.visit.principal)
            let said = Words.say(.lentAtDesk(member: member.displayName, card: member.cardNumber?.grouped, books: loans.count))
            let titles = loans.map { t("web.titleInList", $0.bookTitle) }.joined(separator: ", ")
            return Redirect.see("/desk", flash: said + " " + titles + ".")
        } catch {
            let values = ["member": typed, "books": books.joined(separator: " ")]
            let names = ["card": "member", "email": "member", "username": "member", "book": "books"]
            guard let feedback = Feedback(error, values: values, fieldNames: names), !(error is Forbidden) else { throw error }
            return try await desk.desk(DeskQuery(), feedback: feedback, errorsIn: .lend, status: PageError.of(error).status)
        }
    }

    func giveBack() async throws -> Response {
        try Authorization.require(.listLoans, by: site.visit.principal)
        return try await onTheLoan { id in
            let returned = try await site.library.circulation.giveBack.execute(id, by: site.visit.principal)
            if returned.returnedBefore { return Self.returnedBefore(returned.loan) }
            let said = t("web.desk.returned", returned.loan.bookTitle, Words.catalogue.borrower(of: returned.loan))
            // A copy this return set aside is said, so that it goes aside and not back on the shelf.
            guard let kept = returned.setAsideFor else { return said }
            return said + " " + t("web.desk.setItAside", Words.catalogue.member(of: kept))
        }
    }

    func renew() async throws -> Response {
        try Authorization.require(.listLoans, by: site.visit.principal)
        return try await onTheLoan { id in
            let loan = try await site.library.circulation.renew.execute(id, by: site.visit.principal)
            return t("web.desk.renewed", loan.bookTitle, Words.catalogue.borrower(of: loan), Dates.day(loan.dueAt))
        }
    }

    /// A second return of one loan (a retry, a second click) says so, and not where the copy goes.
    static func returnedBefore(_ loan: LoanSummary) -> String {
        t("web.desk.returnedBefore", loan.bookTitle, loan.returnedAt.map { Dates.day($0) } ?? "")
    }

    /// Runs `action` on the loan the form names, and goes back with what it did or why it could not.
    private func onTheLoan(_ action: (LoanID) async throws -> String) async throws -> Response {
        let raw = site.form["loan"] ?? ""
        do {
            guard let id = LoanID(raw) else { throw NotFound(.loan, raw) }
            return Redirect.see(back(), flash: try await action(id))
        } catch {
            guard let text = Words.say(error: error), !(error is Forbidden) else { throw error }
            return Redirect.see(back(), flash: text, refused: true)
        }
    }

    func issueResetCode() async throws -> Response {
        try Authorization.require(.issueResetCode, by: site.visit.principal)
        let typed = site.form["member"] ?? ""
        do {
            guard !typed.isEmpty else { throw InvalidInput("member", .required) }
            let issued = try await site.library.accounts.passwords.issueResetCode.execute(typed, by: site.visit.principal)
            let code = ResetCodeView(
                email: issued.account.email.description, name: issued.account.displayName, code: issued.code,
                until: Formats(Reader.language).moment(issued.expiresAt))
            return try await desk.desk(DeskQuery(), resetCode: code)
        } catch {
            let names = ["member": "reset-member", "card": "reset-member", "email": "reset-member"]
            guard let feedback = Feedback(error, values: ["reset-member": typed], fieldNames: names), !(error is Forbidden) else {
                throw error
            }
            return try await desk.desk(DeskQuery(), feedback: feedback, errorsIn: .reset, status: PageError.of(error).status)
        }
    }

    func checkOut() async throws -> Response {
        try Authorization.require(.lendWalkIn, by: site.visit.principal)
        let name = site.form["name"] ?? ""
        let raw = site.form["book"] ?? ""
        do {
            let loan = try await site.library.circulation.checkout.execute(
                try BookID.parse(raw), borrowerName: name, by: site.visit.principal)
            let due = Formats(Reader.language).day(loan.dueAt)
            return Redirect.see(back(), flash: t("web.desk.lentWalkIn", loan.bookTitle, loan.borrowerName, due))
        } catch {
            guard let text = Words.say(error: error), !(error is Forbidden) else { throw error }
            return Redirect.see(back(), flash: text, refused: true)
        }
    }
}
