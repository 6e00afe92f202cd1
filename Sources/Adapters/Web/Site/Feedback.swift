import Application
import Domain

/// What a form shows after a refused submission: a summary at the top (focused, linked to the
/// fields), each field's own error next to it, and the values typed (never passwords).
struct Feedback: Hashable, Sendable {
    /// One line of the summary, linking to its field.
    struct Item: Hashable, Sendable {
        let field: String
        let text: String
    }

    /// Templates see stored properties only, so the summary's condition is kept up to date here.
    var top: String? { didSet { hasErrors = top != nil || !items.isEmpty } }
    var items: [Item] = [] { didSet { hasErrors = top != nil || !items.isEmpty } }
    private(set) var hasErrors = false
    /// The error of each field by name, for `aria-describedby` and the text under the field.
    var fields: [String: String] = [:]
    /// The values typed, by field name.
    var values: [String: String] = [:]

    init(values: [String: String] = [:]) { self.values = values }

    /// The feedback for `error`: field errors next to their fields, anything else at the top;
    /// nil for a fault, which the page's error handler turns into a 500.
    init?(_ error: any Error, values: [String: String], fieldNames: [String: String] = [:]) {
        self.values = values
        let errors: [FieldError]
        switch error {
        case let error as InvalidInput: errors = error.errors
        case let error as BookRefused:
            if case .invalid(let invalid) = error.rejection { errors = invalid } else { errors = [] }
        default: errors = []
        }
        if errors.isEmpty {
            guard let text = Words.say(error: error) else { return nil }
            top = text
            hasErrors = true
            return
        }
        for error in errors {
            let field = fieldNames[error.field] ?? error.field
            let text = Words.say(FieldError(field, error.problem))
            if fields[field] == nil { fields[field] = text }
            items.append(Item(field: field, text: text))
        }
        hasErrors = true
    }

    /// Feedback with one message at the top.
    init(top: String, values: [String: String] = [:]) {
        self.top = top
        self.values = values
        hasErrors = true
    }

    /// Adds an error to one field.
    mutating func add(_ field: String, _ text: String) {
        if fields[field] == nil { fields[field] = text }
        items.append(Item(field: field, text: text))
    }
}
