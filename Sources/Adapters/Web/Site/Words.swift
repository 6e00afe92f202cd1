import Application
import Domain
import HTTPTypes

/// The catalogue's words as pages show them: a sentence starts with a capital and ends with a full stop.
enum Words {
    /// The catalogue pages are worded in (English until the French issue adds a language).
    static var catalogue: any MessageCatalogue { Catalogues.preferred() }

    /// A message as one sentence.
    static func say(_ message: Message) -> String { sentence(catalogue.text(message)) }

    /// What a command did, as one sentence.
    static func say(_ confirmation: Confirmation) -> String { sentence(catalogue.text(confirmation)) }

    /// What is wrong with one field, to show next to it.
    static func say(_ problem: FieldProblem) -> String { sentence(catalogue.text(problem)) }

    /// What is wrong with a field, named by its label ("Password must be at least 8 characters long.").
    static func say(_ error: FieldError) -> String { sentence("\(labels[error.field] ?? error.field) \(catalogue.text(error.problem))") }

    /// The error's message, or nil when it is a fault a person should not read; fields are named by their labels.
    static func say(error: any Error) -> String? {
        if let invalid = error as? InvalidInput { return invalid.errors.map(say).joined(separator: " ") }
        return catalogue.text(of: error).map(sentence)
    }

    /// The fields' names as the pages' labels say them.
    static let labels = [
        "email": "Email address", "password": "Password", "current": "Current password", "new": "New password",
        "displayName": "Name", "username": "Username", "country": "Country", "title": "Title", "authors": "Authors", "isbn": "ISBN",
        "copies": "Copies",
        "coverUrl": "Cover address", "publisher": "Publisher", "categories": "Categories", "description": "Description",
        "q": "Search words", "member": "Member", "reset-member": "Member", "books": "Books", "at": "Date and time", "book": "Book",
        "name": "Borrower's name", "borrowerName": "Borrower's name", "confirm": "Confirmation", "workKey": "Open Library work",
        "role": "Role", "offset": "Page", "limit": "Page size", "sort": "Sort", "loan": "Loan", "hold": "Hold",
    ]

    /// `text` with a capital first letter and a closing full stop.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capital = first.uppercased() + text.dropFirst()
        return capital.last.map { ".!?".contains($0) } == true ? capital : capital + "."
    }

    /// An error page's heading.
    static func heading(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "That did not work"
        case 403: "Not allowed"
        case 404: "Page not found"
        case 409: "That cannot be done now"
        case 413: "Too much at once"
        case 429: "Too many attempts"
        case 503: "Busy right now"
        case 500..<600: "Something went wrong"
        default: "That did not work"
        }
    }
}
