import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// The catalogue read model on PostgreSQL, queried from `catalogue_books` in SQLite's orders
/// (`SQLiteCatalogue`), searched through the tokens its projection keeps (`FullTextSearch`).
public struct PostgresCatalogue: Catalogue {
    let client: PostgresClient
    let logger: Logger

    /// A book's row with its active holds and the copies kept for members, from the holds read model.
    private static let columns = """
        id, title, authors, isbn, publisher, categories, cover_url, description, copies, on_loan, added_at, updated_at,
        last_checkout_name, last_checkout_at,
        (SELECT COUNT(*) FROM holds h WHERE h.book_id = catalogue_books.id AND h.status IN ('waiting', 'ready')),
        (SELECT COUNT(*) FROM holds h WHERE h.book_id = catalogue_books.id AND h.status = 'ready')
        """
    private typealias Row = (
        String, String, [String], String?, String?, [String], String?, String?, Int, Int, String, String, String?, String?, Int, Int
    )

    /// A copy is on the shelf for anyone: not lent, not kept for a member who waited.
    private static let onTheShelf = """
        copies - on_loan - (SELECT COUNT(*) FROM holds h WHERE h.book_id = catalogue_books.id AND h.status = 'ready') > 0
        """

    public func page(_ query: CatalogueQuery, _ page: PageRequest) async throws -> Page<CatalogueEntry> {
        let search = FullTextSearch(try query.searchTerms())
        if case .nothing = search { return Page(items: [], total: 0, of: page) }
        return try await client.session(logger) { session in
            try await session.snapshot {
                let count = Self.matching(search, query.availableOnly, "SELECT COUNT(*) FROM catalogue_books")
                let total = try await session.value(count, as: Int.self) ?? 0
                let select = Self.matching(
                    search, query.availableOnly, "SELECT \(Self.columns) FROM catalogue_books", order: Self.order(query.sort), page)
                let rows = try await session.rows(select, as: Row.self)
                return Page(items: try rows.map(Self.entry), total: total, of: page)
            }
        }
    }

    /// The books a search matches (each term's needle in its field's tokens), with a copy on the shelf when asked.
    private static func matching(
        _ search: FullTextSearch, _ availableOnly: Bool, _ head: String, order: String? = nil, _ page: PageRequest? = nil
    ) -> PostgresQuery {
        let (fields, needles) = search.terms
        return """
            \(unescaped: head)
            WHERE (\(search.filters) = false OR NOT EXISTS (
                    SELECT 1 FROM unnest(\(fields)::text[], \(needles)::text[]) AS term(field, needle)
                    WHERE strpos(CASE term.field WHEN 'title' THEN search_title WHEN 'authors' THEN search_authors
                                 WHEN 'isbn' THEN search_isbn WHEN 'publisher' THEN search_publisher ELSE search_all END,
                                 term.needle) = 0))
              AND (\(availableOnly) = false OR \(unescaped: onTheShelf))
            \(unescaped: order.map { "ORDER BY \($0)" } ?? "") LIMIT \(page?.limit) OFFSET \(page?.offset ?? 0)
            """
    }

    public func entry(_ id: BookID) async throws -> CatalogueEntry? {
        try await client.session(logger) { session in
            try await session.rows(
                "SELECT \(unescaped: Self.columns) FROM catalogue_books WHERE id = \(id.description)", as: Row.self
            ).first.map(Self.entry)
        }
    }

    public func all() async throws -> [CatalogueEntry] {
        try await client.session(logger) { session in
            try await session.rows("SELECT \(unescaped: Self.columns) FROM catalogue_books ORDER BY seq", as: Row.self).map(Self.entry)
        }
    }

    public func allIDs() async throws -> [BookID] {
        try await client.session(logger) { session in
            try await session.column("SELECT id FROM catalogue_books ORDER BY seq", as: String.self).compactMap(BookID.init)
        }
    }

    public func books(withISBN isbn: ISBN) async throws -> [BookID] {
        try await client.session(logger) { session in
            try await session.column("SELECT id FROM catalogue_books WHERE isbn = \(isbn.isbn13) ORDER BY seq", as: String.self)
                .compactMap(BookID.init)
        }
    }

    /// Filed order, as on SQLite: titles without a leading article, authors by surname, keys compared as bytes.
    private static func order(_ sort: CatalogueSort) -> String {
        switch sort {
        case .newest: "seq DESC"
        case .oldest: "seq ASC"
        case .title: "title_key, seq"
        case .author: "author_key, title_key, seq"
        }
    }

    private static func entry(_ row: Row) throws -> CatalogueEntry {
        let (id, title, authors, isbn, publisher, categories, coverURL, description, copies, onLoan, added, updated) =
            (row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11)
        guard let book = BookID(id) else { throw UnreadableReadModelRow(table: "catalogue_books", id: id) }
        let details = BookDetails(
            title: title, authors: authors, isbn: try isbn.map { try ISBN(parsing: $0) }, publisher: publisher, categories: categories,
            coverURL: coverURL, description: description)
        return CatalogueEntry(
            id: book, details: details, copies: copies, onLoan: onLoan, addedAt: try Timestamp.parse(added),
            updatedAt: try Timestamp.parse(updated),
            lastCheckout: try row.12.map { CatalogueEntry.Checkout(name: $0, at: try Timestamp.parse(row.13 ?? "")) },
            holdCount: row.14, setAside: row.15)
    }
}

extension PostgresLibrary {
    /// The catalogue read model.
    public var catalogue: PostgresCatalogue { PostgresCatalogue(client: client, logger: logger) }
}

/// A search as the SQLite store's FTS5 query reads it (`FullTextQuery`), as needles in the fields'
/// tokens (`PostgresCatalogueProjection.Filed`): every term must match, a word as a word prefix, a
/// phrase whole, an ISBN in its ISBN-13 form, in its field or in any. A term with no letter nor
/// digit is dropped (as SQLite drops it); one whose text FTS5 cuts into no token is left out of the
/// others, and matches nothing alone.
enum FullTextSearch {
    /// No search: every book.
    case everything
    /// A search no book matches.
    case nothing
    /// Each term's field ("all" for any) and needle.
    case every([(field: String, needle: String)])

    init(_ search: SearchTerms?) {
        let kept = (search?.terms ?? []).compactMap { term -> (SearchTerms.Term, String)? in
            let text: String
            switch term.value {
            case .word(let word): text = word
            case .phrase(let phrase): text = phrase
            case .isbn(let isbn): text = isbn.isbn13
            }
            // Tested on the term as FTS5 is given it, quoted, as `FullTextQuery` tests it (a quote
            // and a mark after it are one character).
            let quoted = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return quoted.contains(where: { $0.isLetter || $0.isNumber }) ? (term, text) : nil
        }
        guard !kept.isEmpty else {
            self = .everything
            return
        }
        let needles = kept.compactMap { term, text -> (field: String, needle: String)? in
            let tokens = FullTextTokens.of(text)
            guard !tokens.isEmpty else { return nil }
            let prefix: Bool
            if case .word = term.value { prefix = true } else { prefix = false }
            return (term.field.map(Self.column) ?? "all", " " + tokens.joined(separator: " ") + (prefix ? "" : " "))
        }
        self = needles.isEmpty ? .nothing : .every(needles)
    }

    /// Whether the search filters at all.
    var filters: Bool {
        if case .everything = self { return false }
        return true
    }

    /// The terms' fields and needles, as two arrays.
    var terms: (fields: [String], needles: [String]) {
        guard case .every(let terms) = self else { return ([], []) }
        return (terms.map(\.field), terms.map(\.needle))
    }

    /// The field of `catalogue_books` a search field limits a term to.
    private static func column(_ field: SearchTerms.Field) -> String {
        switch field {
        case .author: "authors"
        case .title: "title"
        case .isbn: "isbn"
        case .publisher: "publisher"
        }
    }
}
