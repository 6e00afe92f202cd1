import Application
import Domain
import Foundation
import GRDB

/// Folds book events into `catalogue_books` and its full-text index `catalogue_search`.
/// A book's row key (`seq`) is the position of its `book.added` event, shared by both tables.
struct CatalogueProjection: SQLiteProjection {
    let name = "catalogue"

    func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM catalogue_books; DELETE FROM catalogue_search;")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        switch recorded.event {
        case .book(let event):
            try apply(event, recorded, db)
        case .loan(.opened(let e)):
            try db.cached(
                sql: "UPDATE catalogue_books SET last_checkout_name = ?, last_checkout_at = ? WHERE id = ?",
                arguments: [e.borrowerName.known ?? CatalogueEntry.Checkout.erasedName, Timestamp.format(e.lentAt), e.book.description])
        case .user(.closed(let e)):
            // A book's last checkout no longer names a member who closed their account (their loans tell which books).
            try renameLastCheckouts(of: e.user, to: CatalogueEntry.Checkout.erasedName, db)
        case .user(.profileChanged(let e)):
            // Nor the name a member went by before they changed it.
            guard let name = e.displayName, !name.isEmpty else { return }
            try renameLastCheckouts(of: e.user, to: name, db)
        case .loan(.renewed), .loan(.returned), .loan(.noticeIssued), .user, .emailClaim, .patron, .inbox, .bookmark, .isbnClaim, .hold,
            .cardClaim, .walkIn, .appKey, .usernameClaim:
            return
        }
    }

    /// Names `member` as `name` on every book whose last checkout was theirs (found through the loans read model).
    private func renameLastCheckouts(of member: UserID, to name: String, _ db: Database) throws {
        try db.cached(
            sql: """
                UPDATE catalogue_books SET last_checkout_name = ?
                WHERE last_checkout_name IS NOT NULL AND EXISTS (
                    SELECT 1 FROM loans
                    WHERE loans.book_id = catalogue_books.id AND loans.lent_at = catalogue_books.last_checkout_at
                          AND loans.borrower_id = ?)
                """,
            arguments: [name, member.description])
    }

    private func apply(_ event: BookEvent, _ recorded: RecordedEvent, _ db: Database) throws {
        // Formatted only for the events that store it: a copy lent or returned (most of a log) does not.
        var at: String { Timestamp.format(recorded.metadata.recordedAt) }
        switch event {
        case .added(let e):
            let added = at
            try db.cached(
                sql: """
                    INSERT INTO catalogue_books (seq, id, title, title_sort, title_key, authors, author_sort, author_key,
                        isbn, publisher, categories, cover_url, description, copies, added_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(
                    [recorded.position, e.book.description] + Self.detailColumns(e.details) + [e.copies, added, added]))
            try index(e.details, seq: recorded.position, db)
        case .edited(let e):
            guard let seq = try seq(of: e.book, db) else { return }
            try db.cached(
                sql: """
                    UPDATE catalogue_books SET title = ?, title_sort = ?, title_key = ?, authors = ?, author_sort = ?,
                        author_key = ?, isbn = ?, publisher = ?, categories = ?, cover_url = ?, description = ?, updated_at = ?
                    WHERE seq = ?
                    """,
                arguments: StatementArguments(Self.detailColumns(e.details) + [at, seq]))
            try db.cached(sql: "DELETE FROM catalogue_search WHERE rowid = ?", arguments: [seq])
            try index(e.details, seq: seq, db)
        case .copiesAdded(let e), .copiesRemoved(let e):
            try db.cached(
                sql: "UPDATE catalogue_books SET copies = ?, updated_at = ? WHERE id = ?",
                arguments: [e.total, at, e.book.description])
        case .copyLent(let e), .copyReturned(let e):
            try db.cached(sql: "UPDATE catalogue_books SET on_loan = ? WHERE id = ?", arguments: [e.onLoan, e.book.description])
        case .withdrawn(let e):
            guard let seq = try seq(of: e.book, db) else { return }
            try db.cached(sql: "DELETE FROM catalogue_books WHERE seq = ?", arguments: [seq])
            try db.cached(sql: "DELETE FROM catalogue_search WHERE rowid = ?", arguments: [seq])
        }
    }

    private func seq(of book: BookID, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM catalogue_books WHERE id = ?"), arguments: [book.description])
    }

    private func index(_ details: BookDetails, seq: Int64, _ db: Database) throws {
        let isbn = [details.isbn?.isbn13, details.isbn?.isbn10].compactMap { $0 }.joined(separator: " ")
        try db.cached(
            sql: "INSERT INTO catalogue_search (rowid, title, authors, isbn, publisher, categories) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                seq, details.title, details.authors.joined(separator: " ; "), isbn, details.publisher ?? "",
                details.categories.joined(separator: " ; "),
            ])
    }

    /// title, title_sort, title_key, authors, author_sort, author_key, isbn, publisher, categories,
    /// cover_url, description.
    static func detailColumns(_ d: BookDetails) -> [(any DatabaseValueConvertible)?] {
        let filing = Filing(title: d.title, authors: d.authors)
        return [
            d.title, filing.titleSort, filing.titleKey, JSONStringArray.encode(d.authors), filing.authorSort, filing.authorKey,
            d.isbn?.isbn13,
            d.publisher, JSONStringArray.encode(d.categories), d.coverURL, d.description,
        ]
    }

    /// How a book is filed (`SortKeys`): titles without a leading article, authors by surname; the
    /// keys fold case and accents, and SQLite orders them as bytes.
    struct Filing {
        let titleSort: String
        let titleKey: String
        let authorSort: String
        let authorKey: String
        init(title: String, authors: [String]) {
            titleSort = SortKeys.titleSort(title)
            titleKey = SortKeys.collationKey(titleSort)
            authorSort = SortKeys.authorsSort(authors)
            authorKey = SortKeys.collationKey(authorSort)
        }
    }

    /// Adds the filing columns and files every row again (the keys changed meaning: "The Hobbit"
    /// under H, authors by surname), from the title and authors each row holds.
    static func migrateFiling(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE catalogue_books ADD COLUMN title_sort TEXT NOT NULL DEFAULT '';
                ALTER TABLE catalogue_books ADD COLUMN author_sort TEXT NOT NULL DEFAULT '';
                CREATE INDEX catalogue_books_by_isbn ON catalogue_books (isbn, seq);
                """)
        try refile(db)
    }

    /// Recomputes every book's sort keys from its title and authors, after `SortKeys` changed how
    /// it files them (the keys are what the projection would write for the same events).
    static func refile(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT seq, title, authors FROM catalogue_books") {
            let filing = Filing(
                title: row["title"], authors: try JSONStringArray.decode(row["authors"]))
            try db.execute(
                sql: "UPDATE catalogue_books SET title_sort = ?, title_key = ?, author_sort = ?, author_key = ? WHERE seq = ?",
                arguments: [filing.titleSort, filing.titleKey, filing.authorSort, filing.authorKey, row["seq"] as Int64])
        }
    }

    /// Case- and accent-insensitive ordering key (bookmarks' titles).
    static func sortKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
