import Domain
import Foundation

/// A book as the catalogue lists it.
public struct CatalogueEntry: Equatable, Sendable {
    public let id: BookID
    public let details: BookDetails
    public let copies: Int
    public let onLoan: Int
    public let addedAt: Date
    public let updatedAt: Date
    /// Who borrowed a copy last, and when (members and walk-in borrowers alike); the name only
    /// for those who may see it (`CheckoutPrivacy`).
    public var lastCheckout: Checkout?
    /// Members in the book's waiting list, waiting or with a copy kept for them.
    public let holdCount: Int
    /// Copies on the shelf kept for members who waited (ready for pickup): not available to anyone else.
    public let setAside: Int
    /// Copies anyone may borrow now.
    public var available: Int { copies - onLoan - setAside }
    /// Members still waiting for a copy (not those a copy is kept for).
    public var waiting: Int { max(0, holdCount - setAside) }

    /// A borrower's name (nil when hidden from the reader, `erasedName` once erased) and the time of a checkout.
    public struct Checkout: Equatable, Sendable {
        /// The name kept once the borrower closed their account and their name was erased.
        public static let erasedName = ""
        public let name: String?
        public let at: Date
        public init(name: String?, at: Date) {
            self.name = name
            self.at = at
        }
    }

    public init(
        id: BookID, details: BookDetails, copies: Int, onLoan: Int, addedAt: Date, updatedAt: Date, lastCheckout: Checkout? = nil,
        holdCount: Int = 0, setAside: Int = 0
    ) {
        self.lastCheckout = lastCheckout
        self.holdCount = holdCount
        self.setAside = setAside
        self.id = id
        self.details = details
        self.copies = copies
        self.onLoan = onLoan
        self.addedAt = addedAt
        self.updatedAt = updatedAt
    }
}

/// Orders the catalogue can be listed in.
public enum CatalogueSort: String, CaseIterable, Sendable {
    case newest, oldest, title, author
}

/// What part of the catalogue to list (the page is asked apart, as for every list).
public struct CatalogueQuery: Hashable, Sendable {
    public var sort: CatalogueSort
    /// Words that must all appear (as word prefixes) in title, authors, ISBN, publisher or
    /// categories; `author:`, `title:`, `isbn:` and `publisher:` limit a word or a quoted phrase to
    /// one field (`SearchTerms`).
    public var text: String?
    /// Only books with a copy anyone may borrow now.
    public var availableOnly: Bool

    public init(sort: CatalogueSort = .newest, text: String? = nil, availableOnly: Bool = false) {
        self.sort = sort
        self.text = text
        self.availableOnly = availableOnly
    }

    /// Field errors for search text that is too long or not text.
    public func validate() throws(InvalidInput) {
        var errors: [FieldError] = []
        // Counted in Unicode scalars, as the contract's maxLength is: a character may carry any number of them.
        if let text, text.unicodeScalars.count > 200 { errors.append(FieldError("q", .tooLong(max: 200))) }
        // Typed text like any other (a NUL cut the full-text query short: a 500); tabs and line breaks separate words.
        if let text, let problem = FreeText.problem(text, field: "q", multiline: true) { errors.append(problem) }
        if errors.isEmpty { do { _ = try searchTerms() } catch { errors += error.errors } }
        if !errors.isEmpty { throw InvalidInput(errors) }
    }

    /// The search `text` asks for, or nil for none; a field error on `q` when it cannot be read.
    public func searchTerms() throws(InvalidInput) -> SearchTerms? {
        guard let text else { return nil }
        do { return try SearchTerms(parsing: text) } catch { throw InvalidInput("q", error.fieldProblem) }
    }
}

/// The catalogue read model.
public protocol Catalogue: Sendable {
    /// One page of books matching the query, in the requested order (ties broken by the order books were added).
    func page(_ query: CatalogueQuery, _ page: PageRequest) async throws -> Page<CatalogueEntry>
    /// One book, or nil when there is no such book in the catalogue.
    func entry(_ id: BookID) async throws -> CatalogueEntry?
    /// The ids of every book in the catalogue.
    func allIDs() async throws -> [BookID]
    /// Every book in the catalogue, in the order added, in one read.
    func all() async throws -> [CatalogueEntry]
    /// The books of the catalogue with this ISBN, oldest first.
    func books(withISBN isbn: ISBN) async throws -> [BookID]
}
