import Application
import Domain
import Foundation
import GRDB

/// The catalogue read model, queried from `catalogue_books` and its FTS5 index.
public struct SQLiteCatalogue: Catalogue {
    let reads: ReadConnections
    /// Books and pages as last read, while nothing was committed since (`ReadMemo`), each memo
    /// holding about 8 MiB at most.
    let entries = ReadMemo<BookID, CatalogueEntry?>(capacity: 8 << 20, weight: Self.weight)
    let pages = ReadMemo<PageKey, Page<CatalogueEntry>>(capacity: 8 << 20) { $0.items.reduce(256) { $0 + weight($1) } }

    struct PageKey: Hashable, Sendable {
        let query: CatalogueQuery
        let page: PageRequest
    }

    /// About the bytes an entry holds in memory (its texts and a fixed part), for the memos' bound.
    static func weight(_ entry: CatalogueEntry?) -> Int {
        guard let details = entry?.details else { return 64 }
        let texts = [details.title, details.publisher, details.coverURL, details.description].reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        return 512 + texts + (details.authors + details.categories).reduce(0) { $0 + $1.utf8.count + 16 }
    }

    /// A book's row with its active holds and the copies kept for members, counted from the holds
    /// read model (`holds_by_book` serves both counts). Read by position (`Column`), in this order:
    /// a lookup by name lower-cases the name for every column of every row (bench/PROFILE.md).
    private static let columns = """
        id, title, authors, isbn, publisher, categories, cover_url, description, copies, on_loan, added_at, updated_at,
        last_checkout_name, last_checkout_at,
        (SELECT COUNT(*) FROM holds h WHERE h.book_id = catalogue_books.id AND h.status IN ('waiting', 'ready')) AS hold_count,
        (SELECT COUNT(*) FROM holds h WHERE h.book_id = catalogue_books.id AND h.status = 'ready') AS set_aside
        """

    /// The positions of `columns`.
    private enum Column: Int {
        case id, title, authors, isbn, publisher, categories, coverURL, description, copies, onLoan, addedAt, updatedAt
        case lastCheckoutName, lastCheckoutAt, holdCount, setAside
    }

    /// A copy is on the shelf for anyone: not lent, not kept for a member who waited.
    private static let onTheShelf = """
        copies - on_loan - (SELECT COUNT(*) FROM holds h WHERE h.book_id = catalogue_books.id AND h.status = 'ready') > 0
        """

    public func page(_ query: CatalogueQuery, _ page: PageRequest) async throws -> Page<CatalogueEntry> {
        let match = try query.searchTerms().flatMap(FullTextQuery.make)
        return try reads.read(pages, PageKey(query: query, page: page)) { db in
            var conditions: [String] = []
            if match != nil { conditions.append("seq IN (SELECT rowid FROM catalogue_search WHERE catalogue_search MATCH :match)") }
            if query.availableOnly { conditions.append(Self.onTheShelf) }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let arguments: StatementArguments = ["match": match, "limit": page.limit, "offset": page.offset]
            // Cached statements: a handful of filters and orders, each compiled once per connection.
            let count = try db.cachedStatement(sql: "SELECT COUNT(*) FROM catalogue_books \(filter)")
            let total = try Int.fetchOne(count, arguments: arguments) ?? 0
            let select = try db.cachedStatement(
                sql: "SELECT \(Self.columns) FROM catalogue_books \(filter) ORDER BY \(Self.order(query.sort)) LIMIT :limit OFFSET :offset")
            let rows = try Row.fetchAll(select, arguments: arguments)
            return Page(items: try rows.map(Self.entry), total: total, of: page)
        }
    }

    public func entry(_ id: BookID) async throws -> CatalogueEntry? {
        try reads.read(entries, id) { db in
            let select = try db.cachedStatement(sql: "SELECT \(Self.columns) FROM catalogue_books WHERE id = ?")
            return try Row.fetchOne(select, arguments: [id.description]).map(Self.entry)
        }
    }

    public func all() async throws -> [CatalogueEntry] {
        try reads.read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.columns) FROM catalogue_books ORDER BY seq")).map(Self.entry)
        }
    }

    public func allIDs() async throws -> [BookID] {
        try reads.read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM catalogue_books ORDER BY seq")).compactMap(BookID.init)
        }
    }

    public func books(withISBN isbn: ISBN) async throws -> [BookID] {
        try reads.read { db in
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM catalogue_books WHERE isbn = ? ORDER BY seq"), arguments: [isbn.isbn13]
            )
            .compactMap(BookID.init)
        }
    }

    /// Filed order (`CatalogueProjection.Filing`): titles without a leading article, authors by surname.
    private static func order(_ sort: CatalogueSort) -> String {
        switch sort {
        case .newest: "seq DESC"
        case .oldest: "seq ASC"
        case .title: "title_key, seq"
        case .author: "author_key, title_key, seq"
        }
    }

    private static func entry(_ row: Row) throws -> CatalogueEntry {
        func at<Value: DatabaseValueConvertible>(_ column: Column) -> Value { row[column.rawValue] }
        func optional<Value: DatabaseValueConvertible>(_ column: Column) -> Value? { row[column.rawValue] }
        let details = BookDetails(
            title: at(.title), authors: try strings(at(.authors)),
            isbn: try (optional(.isbn) as String?).map { try ISBN(parsing: $0) }, publisher: optional(.publisher),
            categories: try strings(at(.categories)), coverURL: optional(.coverURL), description: optional(.description))
        guard let id = BookID(at(.id) as String) else { throw DatabaseError(message: "bad book id in catalogue") }
        return CatalogueEntry(
            id: id, details: details, copies: at(.copies), onLoan: at(.onLoan),
            addedAt: try Timestamp.parse(at(.addedAt)), updatedAt: try Timestamp.parse(at(.updatedAt)),
            lastCheckout: try (optional(.lastCheckoutName) as String?).map {
                CatalogueEntry.Checkout(name: $0, at: try Timestamp.parse(at(.lastCheckoutAt)))
            }, holdCount: at(.holdCount), setAside: at(.setAside))
    }

    private static func strings(_ json: String) throws -> [String] {
        try JSONStringArray.decode(json)
    }
}

/// Turns a search into an FTS5 query: every term must match, a word as a word prefix, a phrase
/// whole, an ISBN in its ISBN-13 form; a field limits a term to its column. Every term is a quoted
/// FTS5 string, so nothing typed is read as FTS5 syntax (`*`, `-`, `NEAR`, `OR`, a column filter).
enum FullTextQuery {
    static func make(_ search: SearchTerms) -> String? {
        let terms = search.terms.compactMap { term -> String? in
            let match: String
            switch term.value {
            case .word(let word): match = quoted(word) + "*"
            case .phrase(let phrase): match = quoted(phrase)
            case .isbn(let isbn): match = quoted(isbn.isbn13)
            }
            // A term with nothing FTS5 can tokenise would match nothing at all; drop it.
            guard match.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
            return term.field.map { "\(column($0)) : \(match)" } ?? match
        }
        return terms.isEmpty ? nil : terms.joined(separator: " ")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The column of `catalogue_search` a field searches.
    private static func column(_ field: SearchTerms.Field) -> String {
        switch field {
        case .author: "authors"
        case .title: "title"
        case .isbn: "isbn"
        case .publisher: "publisher"
        }
    }
}
