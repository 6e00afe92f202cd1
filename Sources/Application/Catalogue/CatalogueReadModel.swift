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
    public var available: Int { copies - onLoan }

    /// A borrower's name (nil when hidden from the reader) and the time of a checkout.
    public struct Checkout: Equatable, Sendable {
        public let name: String?
        public let at: Date
        public init(name: String?, at: Date) {
            self.name = name
            self.at = at
        }
    }

    public init(id: BookID, details: BookDetails, copies: Int, onLoan: Int, addedAt: Date, updatedAt: Date, lastCheckout: Checkout? = nil) {
        self.lastCheckout = lastCheckout
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

/// What part of the catalogue to list.
public struct CatalogueQuery: Equatable, Sendable {
    public static let maxLimit = 100
    public var sort: CatalogueSort
    /// Words that must all appear (as word prefixes) in title, authors, ISBN, publisher or categories.
    public var text: String?
    public var limit: Int
    public var offset: Int

    public init(sort: CatalogueSort = .newest, text: String? = nil, limit: Int = 20, offset: Int = 0) {
        self.sort = sort
        self.text = text
        self.limit = limit
        self.offset = offset
    }

    /// Field errors for paging out of range and for search text that is too long or not text.
    public func validate() throws(InvalidInput) {
        var errors: [FieldError] = []
        if !(1...Self.maxLimit).contains(limit) { errors.append(FieldError("limit", "must be between 1 and \(Self.maxLimit)")) }
        if offset < 0 { errors.append(FieldError("offset", "must not be negative")) }
        // Counted in Unicode scalars, as the contract's maxLength is: a character may carry any number of them.
        if let text, text.unicodeScalars.count > 200 { errors.append(FieldError("q", "must be at most 200 characters")) }
        // Typed text like any other (a NUL cut the full-text query short: a 500); tabs and line breaks separate words.
        if let text, let problem = FreeText.problem(text, field: "q", multiline: true) { errors.append(problem) }
        if !errors.isEmpty { throw InvalidInput(errors) }
    }
}

/// One page of results, with what is needed to fetch the next.
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    public let total: Int
    public let offset: Int
    public let limit: Int
    public init(items: [Item], total: Int, offset: Int, limit: Int) {
        self.items = items
        self.total = total
        self.offset = offset
        self.limit = limit
    }
    /// The offset of the next page, or nil on the last one.
    public var nextOffset: Int? { offset + items.count < total && !items.isEmpty ? offset + items.count : nil }
}

extension Page: Equatable where Item: Equatable {}

/// The catalogue read model.
public protocol Catalogue: Sendable {
    /// One page of books matching the query, in the requested order.
    func page(_ query: CatalogueQuery) async throws -> Page<CatalogueEntry>
    /// One book, or nil when there is no such book in the catalogue.
    func entry(_ id: BookID) async throws -> CatalogueEntry?
    /// The ids of every book in the catalogue.
    func allIDs() async throws -> [BookID]
}
