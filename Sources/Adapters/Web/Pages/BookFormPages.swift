import Application
import Domain
import Foundation
import Hummingbird

/// A librarian adds a book or edits one: the same form, re-shown with the values typed and each
/// field's error when the catalogue refuses it.
struct BookFormPages: Sendable {
    let site: Site

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/books/new") { _, _ in try newForm() }
        router.post("/books") { _, _ in try await add() }
        router.get("/books/{id}/edit") { _, context in try await editForm(try context.parameters.require("id")) }
        router.post("/books/{id}") { _, context in try await edit(try context.parameters.require("id")) }
    }

    func newForm() throws -> Response {
        try Authorization.require(.addBook, by: site.visit.principal)
        return form(BookFormView(action: "/books", heading: t("web.bookForm.addHeading"), feedback: Feedback(values: ["copies": "1"])))
    }

    func add() async throws -> Response {
        try Authorization.require(.addBook, by: site.visit.principal)
        let typed = BookFields(site.form)
        do {
            let entry = try await site.library.catalogue.addBook.execute(
                typed.draft, copies: try typed.copiesNumber(), allowDuplicate: typed.allowDuplicate, by: site.visit.principal)
            return Redirect.see("/books/\(entry.id)", flash: Words.say(.bookAdded(BookName(entry.id, title: entry.details.title))))
        } catch {
            guard let feedback = typed.feedback(error) else { throw error }
            return form(
                BookFormView(
                    action: "/books", heading: t("web.bookForm.addHeading"), feedback: feedback, duplicate: typed.duplicate(error)),
                status: BookFields.status(of: error))
        }
    }

    func editForm(_ rawID: String) async throws -> Response {
        try Authorization.require(.editBook, by: site.visit.principal)
        let entry = try await site.library.catalogue.showBook.execute(try BookID.parse(rawID), by: site.visit.principal)
        let values = BookFields(entry).values
        return form(BookFormView(entry, feedback: Feedback(values: values)))
    }

    func edit(_ rawID: String) async throws -> Response {
        try Authorization.require(.editBook, by: site.visit.principal)
        let id = try BookID.parse(rawID)
        let entry = try await site.library.catalogue.showBook.execute(id, by: site.visit.principal)
        let typed = BookFields(site.form)
        do {
            let (changes, copies) = try typed.changes(from: BookFields(entry))
            let edited = try await site.library.catalogue.editBook.execute(
                id, changes: changes, copies: copies, allowDuplicate: typed.allowDuplicate, by: site.visit.principal)
            return Redirect.see("/books/\(id)", flash: Words.say(.bookUpdated(BookName(id, title: edited.details.title))))
        } catch {
            guard let feedback = typed.feedback(error) else { throw error }
            return form(BookFormView(entry, feedback: feedback, duplicate: typed.duplicate(error)), status: BookFields.status(of: error))
        }
    }

    private func form(_ view: BookFormView, status: HTTPResponse.Status = .ok) -> Response {
        site.pages.render("bookform", view, title: view.heading, status: status)
    }
}

/// The book form's fields as typed: authors and categories comma separated.
struct BookFields: Sendable {
    static let names = ["title", "authors", "isbn", "publisher", "categories", "copies", "coverUrl", "description", "allowDuplicate"]
    let values: [String: String]

    init(_ form: Form) {
        var values: [String: String] = [:]
        for name in Self.names { values[name] = form[name] ?? "" }
        self.values = values
    }

    init(_ entry: CatalogueEntry) {
        let details = entry.details
        values = [
            "title": details.title, "authors": details.authors.joined(separator: ", "), "isbn": details.isbn?.description ?? "",
            "publisher": details.publisher ?? "", "categories": details.categories.joined(separator: ", "),
            "copies": String(entry.copies), "coverUrl": details.coverURL ?? "", "description": details.description ?? "",
        ]
    }

    func text(_ name: String) -> String { values[name] ?? "" }

    /// Whether the librarian asked for a second record of an ISBN already catalogued (the box the
    /// form offers once it was refused as a duplicate).
    var allowDuplicate: Bool { text("allowDuplicate") == "on" }

    /// The box to offer again: after a duplicate-ISBN refusal, or ticked already (another error).
    func duplicate(_ error: any Error) -> DuplicateChoice? {
        if let refused = error as? BookRefused, case .duplicateISBN = refused.rejection { return DuplicateChoice(checked: allowDuplicate) }
        return allowDuplicate ? DuplicateChoice(checked: true) : nil
    }

    func optional(_ name: String) -> String? { text(name).isEmpty ? nil : text(name) }
    func list(_ name: String) -> [String] {
        text(name).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    var draft: BookDraft {
        BookDraft(
            title: text("title"), authors: list("authors"), isbn: optional("isbn"), publisher: optional("publisher"),
            categories: list("categories"), coverURL: optional("coverUrl"), description: optional("description"))
    }

    /// The number of copies typed; when it is not a whole number, a field error on `copies` with
    /// the draft's own field errors (the domain's validation), so the form shows every problem at once.
    func copiesNumber() throws -> Int {
        if let copies = Int(text("copies")) { return copies }
        var errors: [FieldError] = []
        _ = draft.validate(into: &errors)
        throw InvalidInput(errors + [FieldError("copies", .wrongType(.integer))])
    }

    /// The fields that differ from `current` (an emptied optional field clears it), and the copies when changed.
    func changes(from current: BookFields) throws -> (BookChanges, Int?) {
        func changed(_ name: String) -> String? { text(name) == current.text(name) ? nil : text(name) }
        func changedList(_ name: String) -> [String]? { list(name) == current.list(name) ? nil : list(name) }
        let changes = BookChanges(
            title: changed("title"), authors: changedList("authors"), isbn: changed("isbn"), publisher: changed("publisher"),
            categories: changedList("categories"), coverURL: changed("coverUrl"), description: changed("description"))
        return (changes, changed("copies") == nil ? nil : try copiesNumber())
    }

    /// A refusal's status: 400 for field errors (as `InvalidInput` has), else the status the API gives it.
    static func status(of error: any Error) -> HTTPResponse.Status {
        if let refused = error as? BookRefused, case .invalid = refused.rejection { return .badRequest }
        return PageError.of(error).status
    }

    /// The form's feedback for a refusal: `authors[2]` is the authors field's error.
    func feedback(_ error: any Error) -> Feedback? {
        var names: [String: String] = [:]
        for index in 0..<max(BookLimits.authors, BookLimits.categories) + 10 {
            names["authors[\(index)]"] = "authors"
            names["categories[\(index)]"] = "categories"
        }
        return Feedback(error, values: values, fieldNames: names)
    }
}

/// The form's "add it as a second record" box, shown once an ISBN was refused as already catalogued.
struct DuplicateChoice: Sendable {
    let checked: Bool
}

/// The add and edit form.
struct BookFormView: Sendable {
    let action: String
    let heading: String
    let feedback: Feedback
    let editing: Bool
    let bookID: String?
    let duplicate: DuplicateChoice?

    init(action: String, heading: String, feedback: Feedback, duplicate: DuplicateChoice? = nil) {
        self.action = action
        self.heading = heading
        self.feedback = feedback
        editing = false
        bookID = nil
        self.duplicate = duplicate
    }

    init(_ entry: CatalogueEntry, feedback: Feedback, duplicate: DuplicateChoice? = nil) {
        action = "/books/\(entry.id)"
        heading = t("web.bookForm.editHeading", entry.details.title)
        self.feedback = feedback
        editing = true
        bookID = entry.id.description
        self.duplicate = duplicate
    }
}
