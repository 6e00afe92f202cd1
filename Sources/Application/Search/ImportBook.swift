import Domain
import Foundation

/// A librarian adds a catalogue book from Open Library by ISBN or work key: the found record
/// pre-fills the draft, the librarian's values override it, and the usual rules decide. When
/// Open Library cannot be reached nothing is added. An ISBN the catalogue has already is refused
/// as `AddBook` refuses it, unless `allowDuplicate`.
public struct ImportBook: Sendable {
    let lookup: any BookLookup
    let addBook: AddBook

    public init(lookup: any BookLookup, addBook: AddBook) {
        self.lookup = lookup
        self.addBook = addBook
    }

    public func execute(
        isbn: String? = nil, workKey: String? = nil, overrides: BookChanges = BookChanges(), copies: Int = 1,
        allowDuplicate: Bool = false, by principal: Principal
    )
        async throws -> CatalogueEntry
    {
        try Authorization.require(.importBook, by: principal)
        let found: BookRecordFound?
        switch (isbn, workKey) {
        case (let isbn?, nil):
            let parsed: ISBN
            do { parsed = try ISBN(parsing: isbn) } catch { throw InvalidInput("isbn", .notAnISBN(isbn, error)) }
            if !allowDuplicate, overrides.isbn == nil { try await refuseIfCatalogued(parsed) }
            found = try await lookup.book(isbn: parsed)
            guard found != nil else { throw NotFound(.edition, parsed.isbn13) }
        case (nil, let key?):
            let key = key.split(separator: "/").last.map(String.init) ?? key
            guard key.hasPrefix("OL"), key.hasSuffix("W") else {
                throw InvalidInput("workKey", .notAWorkKey)
            }
            found = try await lookup.book(workKey: key)
            guard found != nil else { throw NotFound(.work, key) }
        default:
            throw InvalidInput("isbn", .exactlyOneOf(["isbn", "workKey"]))
        }
        let record = found!
        // What Open Library wrote is mended, not refused: the librarian did not type it. The book
        // is filed under the ISBN asked for, which an edition listing several may not name first.
        let asked = isbn.flatMap { try? ISBN(parsing: $0).isbn13 }
        let prefilled = BookDraft(
            title: record.title.flatMap { FreeText.cleaned($0, max: BookLimits.title) } ?? "",
            authors: Array(record.authors.compactMap { FreeText.cleaned($0, max: BookLimits.author) }.prefix(BookLimits.authors)),
            isbn: asked ?? record.isbn.flatMap { try? ISBN(parsing: $0).isbn13 },
            publisher: record.publisher.flatMap { FreeText.cleaned($0, max: BookLimits.publisher) },
            coverURL: record.coverURL,
            description: record.description.flatMap { FreeText.cleaned($0, max: BookLimits.description, multiline: true) })
        let draft = BookDraft(
            title: overrides.title ?? prefilled.title, authors: overrides.authors ?? prefilled.authors,
            isbn: overrides.isbn ?? prefilled.isbn,
            publisher: overrides.publisher ?? prefilled.publisher, categories: overrides.categories ?? [],
            coverURL: overrides.coverURL ?? prefilled.coverURL, description: overrides.description ?? prefilled.description)
        return try await addBook.execute(draft, copies: copies, allowDuplicate: allowDuplicate, by: principal)
    }

    /// An ISBN the catalogue has already is refused before Open Library is asked, so the librarian
    /// hears of the existing book even when Open Library is down. (`AddBook` decides for certain.)
    private func refuseIfCatalogued(_ isbn: ISBN) async throws {
        guard let existing = try await addBook.catalogue.books(withISBN: isbn).first,
            let entry = try await addBook.catalogue.entry(existing)
        else { return }
        throw BookRefused(existing, .duplicateISBN(isbn, existing: existing, title: entry.details.title))
    }
}
