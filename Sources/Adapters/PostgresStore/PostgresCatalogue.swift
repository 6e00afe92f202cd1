import Application
import Domain
import Foundation
import Logging
import PostgresNIO

/// The catalogue read model on PostgreSQL, queried from `catalogue_books` in SQLite's orders
/// (`SQLiteCatalogue`), searched through the words its projection keeps (`FullTextSearch`).
public struct PostgresCatalogue: Catalogue {
    let client: PostgresPool
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

    /// The books a search matches, with a copy on the shelf when asked: every term's words among
    /// the book's (`search_words`, through its index), and the phrases in their fields' tokens.
    private static func matching(
        _ search: FullTextSearch, _ availableOnly: Bool, _ head: String, order: String? = nil, _ page: PageRequest? = nil
    ) -> PostgresQuery {
        let orderBy = order.map { "ORDER BY \($0)" } ?? ""
        guard case .books(let words, let phrases) = search else {
            return """
                \(unescaped: head) WHERE (\(availableOnly) = false OR \(unescaped: onTheShelf))
                \(unescaped: orderBy) LIMIT \(page?.limit) OFFSET \(page?.offset ?? 0)
                """
        }
        let (fields, needles) = (phrases.map(\.field), phrases.map(\.needle))
        return """
            \(unescaped: head)
            WHERE search_words @@ \(words)::tsquery
              AND (cardinality(\(fields)::text[]) = 0 OR NOT EXISTS (
                    SELECT 1 FROM unnest(\(fields)::text[], \(needles)::text[]) AS phrase(field, needle)
                    WHERE strpos(CASE phrase.field WHEN 'title' THEN search_title WHEN 'authors' THEN search_authors
                                 WHEN 'isbn' THEN search_isbn WHEN 'publisher' THEN search_publisher ELSE search_all END,
                                 phrase.needle) = 0))
              AND (\(availableOnly) = false OR \(unescaped: onTheShelf))
            \(unescaped: orderBy) LIMIT \(page?.limit) OFFSET \(page?.offset ?? 0)
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
