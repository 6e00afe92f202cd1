import Application
import Domain
import HTTPTypes
import Wording

/// The catalogue's words as pages show them, in the reader's language: a sentence starts with a
/// capital and ends with a full stop.
enum Words {
    /// The catalogue of the reader's language (`Reader.language`, set for each request).
    static var catalogue: any MessageCatalogue { Wording.reader }

    /// A message as one sentence.
    static func say(_ message: Message) -> String { sentence(catalogue.text(message)) }

    /// What a command did, as one sentence.
    static func say(_ confirmation: Confirmation) -> String { sentence(catalogue.text(confirmation)) }

    /// What is wrong with one field, to show next to it.
    static func say(_ problem: FieldProblem) -> String { sentence(text(problem)) }

    /// What is wrong with a field, named by its label ("Password must be at least 8 characters long.",
    /// "Mot de passe : …").
    static func say(_ error: FieldError) -> String {
        // Books are chosen, not typed: "Book is required" named a field nobody sees.
        if error.problem == .required, error.field == "book" || error.field == "books" { return t("web.field.chooseABook") }
        return sentence(t("web.sentence.fieldError", label(error.field), text(error.problem)))
    }

    /// A field's problem in the pages' words: where the catalogue's advice names the API's
    /// parameters (a walk-in's loans by `borrower`), the desk names its own forms instead.
    private static func text(_ problem: FieldProblem) -> String {
        if case .notAMemberReference(let typed) = problem { return t("web.problem.notAMemberReference", String(typed.prefix(100))) }
        return catalogue.text(problem)
    }

    /// The error's message, or nil when it is a fault a person should not read; fields are named by their labels.
    static func say(error: any Error) -> String? {
        if let invalid = error as? InvalidInput { return invalid.errors.map(say).joined(separator: " ") }
        return catalogue.text(of: error).map(sentence)
    }

    /// A field's name as the pages' labels say it; the name itself when no page labels it.
    static func label(_ field: String) -> String { labels[field] ?? field }

    /// The fields' names as the pages' labels say them, in the reader's language.
    static var labels: [String: String] {
        [
            "email": t("web.field.email"), "password": t("web.field.password"), "current": t("web.field.current"),
            "new": t("web.field.new"), "displayName": t("web.field.displayName"), "username": t("web.field.username"),
            "country": t("web.field.country"), "title": t("web.field.title"), "authors": t("web.field.authors"),
            "isbn": t("web.field.isbn"), "copies": t("web.field.copies"), "coverUrl": t("web.field.coverUrl"),
            "publisher": t("web.field.publisher"), "categories": t("web.field.categories"),
            "description": t("web.field.description"), "q": t("web.field.q"), "member": t("web.field.member"),
            "reset-member": t("web.field.member"), "books": t("web.field.books"), "at": t("web.field.at"),
            "book": t("web.field.book"), "name": t("web.field.borrowerName"), "borrowerName": t("web.field.borrowerName"),
            "confirm": t("web.field.confirm"), "workKey": t("web.field.workKey"), "role": t("web.field.role"),
            "offset": t("web.field.offset"), "limit": t("web.field.limit"), "sort": t("web.field.sort"),
            "loan": t("web.field.loan"), "code": t("web.field.code"), "hold": t("web.field.hold"), "language": t("web.field.language"),
        ]
    }

    /// `text` with a capital first letter and a closing full stop.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capital = first.uppercased() + text.dropFirst()
        return capital.last.map { ".!?…".contains($0) } == true ? capital : capital + "."
    }

    /// An error page's heading.
    static func heading(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: t("web.heading.badRequest")
        case 403: t("web.heading.forbidden")
        case 404: t("web.heading.notFound")
        case 409: t("web.heading.conflict")
        case 413: t("web.heading.tooLarge")
        case 429: t("web.heading.tooMany")
        case 503: t("web.heading.busy")
        case 500..<600: t("web.heading.failed")
        default: t("web.heading.badRequest")
        }
    }
}
