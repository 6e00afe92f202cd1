import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// The audit: verify the log and show the verdict, a book's or a member's history as a timeline,
/// and the catalogue or the loans as they were at a chosen moment.
struct AuditPages: Sendable {
    let site: Site
    static let pageSize = 50

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/audit") { _, _ in try audit() }
        router.post("/audit/verify") { _, _ in try await verify() }
        router.get("/audit/history") { request, _ in try await history(Form.query(of: request)) }
        router.get("/audit/as-of") { request, _ in try await asOf(Form.query(of: request)) }
    }

    func audit(_ view: AuditView = AuditView()) throws -> Response {
        try Authorization.require(.showHistory, by: site.visit.principal)
        return site.pages.render("audit", view, title: t("web.audit.heading"))
    }

    func verify() async throws -> Response {
        let checks = try await site.library.verifyLog.execute(by: site.visit.principal)
        return try audit(AuditView(checks: checks))
    }

    func history(_ query: Form) async throws -> Response {
        try Authorization.require(.showHistory, by: site.visit.principal)
        let book = query["book"]
        let member = query["member"]
        let offset = query.offset
        let subject: AggregateHistory.Subject
        switch (book, member) {
        case (let book?, nil): subject = .book(book)
        case (nil, let member?): subject = .member(email: member)
        default:
            var feedback = Feedback(values: ["book": book ?? "", "member": member ?? ""])
            feedback.add("history-book", Words.say(FieldProblem.exactlyOneOf(["book", "member"])))
            return site.pages.render("audit", AuditView(historyFeedback: feedback), title: t("web.audit.heading"), status: .badRequest)
        }
        let page = try await site.library.history.execute(
            subject, page: try PageRequest(limit: Self.pageSize, offset: offset), by: site.visit.principal)
        let view = HistoryView(
            heading: try await heading(book: book) ?? t("web.history.headingMember", member ?? ""),
            events: page.items.map(HistoryEvent.init),
            pager: Pager(page, path: "/audit/history", keeping: ["book": book, "member": member]))
        return site.pages.render("history", view, title: t("web.history.title"))
    }

    func asOf(_ query: Form) async throws -> Response {
        try Authorization.require(.timeTravel, by: site.visit.principal)
        let typed = query["at"] ?? ""
        let loans = query["view"] == "loans"
        guard [nil, "loans", "catalogue"].contains(query["view"]) else { throw InvalidInput("view", .notOneOf(["catalogue", "loans"])) }
        guard let moment = Self.moment(typed) else {
            var feedback = Feedback(values: ["at": typed, "view": loans ? "loans" : "catalogue"])
            feedback.add("at", Words.say(FieldProblem.wrongType(.time)))
            return site.pages.render("audit", AuditView(asOfFeedback: feedback), title: t("web.audit.heading"), status: .badRequest)
        }
        let answer = try await site.library.timeTravel.execute(at: moment, view: loans ? .loans : .books, by: site.visit.principal)
        let view = AsOfView(answer, at: moment, loans: loans, typed: typed)
        return site.pages.render("asof", view, title: t("web.asOf.pageTitle", Formats(Reader.language).moment(moment)))
    }

    /// A book's history's heading, naming it by its title while it is in the catalogue (a withdrawn book by its id).
    private func heading(book: String?) async throws -> String? {
        guard let book else { return nil }
        guard let id = try? BookID.parse(book), let entry = try? await site.library.catalogue.showBook.execute(id, by: site.visit.principal)
        else { return t("web.history.headingBookID", book) }
        return t("web.history.headingBook", entry.details.title)
    }

    /// An ISO 8601 time, or a `datetime-local` value (no zone: the library's time, UTC), that
    /// exists: 30 February and 25:61 are refused as the API and the CLI refuse them, not rolled
    /// into March or the next day (found by an outside walk).
    static func moment(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        for candidate in [text, text + "Z", text + ":00Z"] where UTCTime.isRealTime(candidate) {
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: candidate.contains("."))
            if let date = try? Date(candidate, strategy: style) { return date }
        }
        return nil
    }
}
