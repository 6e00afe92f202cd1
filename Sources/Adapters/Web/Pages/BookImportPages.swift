import Application
import Domain
import Foundation
import Hummingbird

/// A librarian imports a book from Open Library by its ISBN, giving the authors or the copies
/// when Open Library's record lacks them; a refusal re-shows the form, with a clear message when
/// Open Library cannot be reached (nothing is added then).
struct BookImportPages: Sendable {
    let site: Site

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/books/import") { _, _ in try importForm() }
        router.post("/books/import") { _, _ in try await importBook() }
    }

    func importForm() throws -> Response {
        try Authorization.require(.importBook, by: site.visit.principal)
        return form(Feedback(values: ["copies": "1"]))
    }

    func importBook() async throws -> Response {
        try Authorization.require(.importBook, by: site.visit.principal)
        let fields = site.form
        let values = ["isbn": fields["isbn"] ?? "", "authors": fields["authors"] ?? "", "copies": fields["copies"] ?? "1"]
        let typed = BookFields(fields)
        do {
            guard let copies = Int(values["copies"] ?? "") else { throw InvalidInput("copies", .wrongType(.integer)) }
            let authors = typed.list("authors")
            let entry = try await site.library.importBook.execute(
                isbn: values["isbn"], overrides: BookChanges(authors: authors.isEmpty ? nil : authors), copies: copies,
                by: site.visit.principal)
            return Redirect.see("/books/\(entry.id)", flash: Words.say(.bookImported(BookName(entry.id, title: entry.details.title))))
        } catch is SearchUnavailable {
            return form(Feedback(top: Words.say(.upstreamUnavailable(.openLibrary)), values: values), status: .serviceUnavailable)
        } catch {
            guard let feedback = typed.feedback(error).map({ Self.keeping(values, $0) }) else { throw error }
            return form(feedback, status: BookFields.status(of: error))
        }
    }

    /// The feedback with the import form's own values.
    private static func keeping(_ values: [String: String], _ feedback: Feedback) -> Feedback {
        var feedback = feedback
        feedback.values = values
        return feedback
    }

    private func form(_ feedback: Feedback, status: HTTPResponse.Status = .ok) -> Response {
        site.pages.render("import", ImportView(feedback: feedback), title: t("web.import.title"), status: status)
    }
}

/// The import form.
struct ImportView: Sendable {
    let feedback: Feedback
}
