import Application
import Domain
import Foundation
import Hummingbird

/// A librarian withdraws books: one from its page, several ticked in the catalogue (all or none:
/// a book on loan refuses the lot, saying why), or every book after typing the confirmation.
struct WithdrawPages: Sendable {
    let site: Site
    /// What a librarian types to clear the whole catalogue in English, taken in any language (the
    /// page may have been read in another language than the one the form is sent in).
    static let confirmation = "DELETE ALL"

    /// The words the page asks for, in the reader's language: `DELETE ALL`, `TOUT RETIRER`.
    static var phrase: String { t("web.deleteAll.phrase") }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.post("/books/{id}/delete") { _, context in try await withdrawOne(try context.parameters.require("id")) }
        router.post("/books/delete") { _, _ in try await withdrawSelected() }
        router.get("/books/delete-all") { _, _ in try clearForm() }
        router.post("/books/delete-all") { _, _ in try await clear() }
    }

    func withdrawOne(_ rawID: String) async throws -> Response {
        try await withdraw([rawID], back: (try? BookID.parse(rawID)).map { "/books/\($0)" } ?? "/books")
    }

    func withdrawSelected() async throws -> Response {
        try await withdraw(site.form.all("book"), back: Redirect.local(site.form["back"], or: "/books"))
    }

    /// Withdraws `ids` in one step, then goes to the catalogue, or back with the refusal.
    private func withdraw(_ ids: [String], back: String) async throws -> Response {
        try Authorization.require(.withdrawBooks, by: site.visit.principal)
        do {
            guard !ids.isEmpty else { throw InvalidInput("book", .required) }
            let books = try ids.map { try BookID.parse($0) }
            let count = try await site.library.catalogue.withdrawBooks.execute(books, by: site.visit.principal)
            return Redirect.see("/books", flash: Words.say(.withdrawn(count: count)))
        } catch {
            guard let text = Words.say(error: error), !(error is Unauthenticated), !(error is Forbidden) else { throw error }
            return Redirect.see(back, flash: text, refused: true)
        }
    }

    func clearForm(_ feedback: Feedback = Feedback(), status: HTTPResponse.Status = .ok) throws -> Response {
        try Authorization.require(.clearCatalogue, by: site.visit.principal)
        return site.pages.render(
            "deleteall", ClearView(feedback: feedback, phrase: Self.phrase), title: t("web.deleteAll.heading"), status: status)
    }

    func clear() async throws -> Response {
        try Authorization.require(.clearCatalogue, by: site.visit.principal)
        let typed = site.form.raw("confirm") ?? ""
        guard typed == Self.confirmation || typed == Self.phrase else {
            var feedback = Feedback(values: ["confirm": typed])
            feedback.add("confirm", t("web.deleteAll.typeError", Self.phrase))
            return try clearForm(feedback, status: .badRequest)
        }
        let report = try await site.library.catalogue.clearCatalogue.execute(by: site.visit.principal)
        var said = [Words.say(.withdrawn(count: report.withdrawn.count))]
        said += report.kept.map { Words.say(.kept(because: $0.message)) }
        return Redirect.see("/books", flash: said.joined(separator: " "), refused: !report.kept.isEmpty)
    }
}

/// The delete-all form.
struct ClearView: Sendable {
    let feedback: Feedback
    let phrase: String
}
