import Application
import Domain
import Foundation
import PostgresNIO

/// Folds book events into `catalogue_books`, as SQLite's `CatalogueProjection` does (same name,
/// same rows): a book's `seq` is the position of its `book.added` event, its filing keys are
/// `SortKeys`', and where SQLite keeps an FTS5 index its searched fields are kept as
/// `FullTextTokens` (each field's tokens between spaces, " the hobbit ", all of them in
/// `search_all`) and as the lexemes of `search_words` (`FullTextWords`), indexed.
struct PostgresCatalogueProjection: PostgresProjection {
    let name = "catalogue"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM catalogue_books")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        switch recorded.event {
        case .book(let event):
            try await apply(event, recorded, session)
        case .loan(.opened(let e)):
            let name = e.borrowerName.known ?? CatalogueEntry.Checkout.erasedName
            try await session.run(
                """
                UPDATE catalogue_books SET last_checkout_name = \(name), last_checkout_at = \(Timestamp.format(e.lentAt))
                WHERE id = \(e.book.description)
                """)
        case .user(.closed(let e)):
            // A book's last checkout no longer names a member who closed their account (their loans tell which books).
            try await renameLastCheckouts(of: e.user, to: CatalogueEntry.Checkout.erasedName, session)
        case .user(.profileChanged(let e)):
            // Nor the name a member went by before they changed it.
            guard let name = e.displayName, !name.isEmpty else { return }
            try await renameLastCheckouts(of: e.user, to: name, session)
        default:
            return
        }
    }

    /// Names `member` as `name` on every book whose last checkout was theirs (found through the loans read model).
    private func renameLastCheckouts(of member: UserID, to name: String, _ session: SQLSession) async throws {
        try await session.run(
            """
            UPDATE catalogue_books SET last_checkout_name = \(name)
            WHERE last_checkout_name IS NOT NULL AND EXISTS (
                SELECT 1 FROM loans
                WHERE loans.book_id = catalogue_books.id AND loans.lent_at = catalogue_books.last_checkout_at
                      AND loans.borrower_id = \(member.description))
            """)
    }

    private func apply(_ event: BookEvent, _ recorded: RecordedEvent, _ session: SQLSession) async throws {
        let at = Timestamp.format(recorded.metadata.recordedAt)
        switch event {
        case .added(let e):
            let d = e.details
            let filed = Filed(d)
            try await session.run(
                """
                INSERT INTO catalogue_books (seq, id, title, title_sort, title_key, authors, author_sort, author_key, isbn,
                    publisher, categories, cover_url, description, copies, added_at, updated_at,
                    search_title, search_authors, search_isbn, search_publisher, search_categories, search_words)
                VALUES (\(recorded.position), \(e.book.description), \(d.title), \(filed.titleSort), \(filed.titleKey),
                    \(d.authors), \(filed.authorSort), \(filed.authorKey), \(d.isbn?.isbn13), \(d.publisher), \(d.categories),
                    \(d.coverURL), \(d.description), \(e.copies), \(at), \(at), \(filed.title), \(filed.authors),
                    \(filed.isbn), \(filed.publisher), \(filed.categories), array_to_tsvector(\(filed.words)::text[]))
                """)
        case .edited(let e):
            let d = e.details
            let filed = Filed(d)
            try await session.run(
                """
                UPDATE catalogue_books SET title = \(d.title), title_sort = \(filed.titleSort), title_key = \(filed.titleKey),
                    authors = \(d.authors), author_sort = \(filed.authorSort), author_key = \(filed.authorKey),
                    isbn = \(d.isbn?.isbn13), publisher = \(d.publisher), categories = \(d.categories),
                    cover_url = \(d.coverURL), description = \(d.description), updated_at = \(at),
                    search_title = \(filed.title), search_authors = \(filed.authors), search_isbn = \(filed.isbn),
                    search_publisher = \(filed.publisher), search_categories = \(filed.categories),
                    search_words = array_to_tsvector(\(filed.words)::text[])
                WHERE id = \(e.book.description)
                """)
        case .copiesAdded(let e), .copiesRemoved(let e):
            try await session.run(
                "UPDATE catalogue_books SET copies = \(e.total), updated_at = \(at) WHERE id = \(e.book.description)")
        case .copyLent(let e), .copyReturned(let e):
            try await session.run("UPDATE catalogue_books SET on_loan = \(e.onLoan) WHERE id = \(e.book.description)")
        case .withdrawn(let e):
            try await session.run("DELETE FROM catalogue_books WHERE id = \(e.book.description)")
        }
    }

    /// A book's filing keys (`SortKeys`, as SQLite's `CatalogueProjection.Filing`), its searched
    /// fields' tokens (the fields as SQLite's FTS5 index is given them) and its words (`FullTextWords`).
    struct Filed {
        let titleSort: String
        let titleKey: String
        let authorSort: String
        let authorKey: String
        let title: String
        let authors: String
        let isbn: String
        let publisher: String
        let categories: String
        let words: [String]

        init(_ d: BookDetails) {
            titleSort = SortKeys.titleSort(d.title)
            titleKey = SortKeys.collationKey(titleSort)
            authorSort = SortKeys.authorsSort(d.authors)
            authorKey = SortKeys.collationKey(authorSort)
            let tokens = [
                d.title, d.authors.joined(separator: " ; "), [d.isbn?.isbn13, d.isbn?.isbn10].compactMap { $0 }.joined(separator: " "),
                d.publisher ?? "", d.categories.joined(separator: " ; "),
            ].map(FullTextTokens.of)
            (title, authors, isbn) = (Self.searched(tokens[0]), Self.searched(tokens[1]), Self.searched(tokens[2]))
            (publisher, categories) = (Self.searched(tokens[3]), Self.searched(tokens[4]))
            words = FullTextWords.of(title: tokens[0], authors: tokens[1], isbn: tokens[2], publisher: tokens[3], categories: tokens[4])
        }

        /// A field's tokens between spaces (" the hobbit "), or "" when it has none: a field's text
        /// contains " a b" exactly when the field has the tokens a, b in a row (b as a prefix), and
        /// fields put one after another hold no such run across two of them (a double space between).
        static func searched(_ tokens: [String]) -> String {
            tokens.isEmpty ? "" : " " + tokens.joined(separator: " ") + " "
        }
    }

    /// The `catalogue_books` table (SQLite's of `v1-catalogue` and after), text compared byte by
    /// byte as on SQLite; the searched fields' tokens where SQLite has `catalogue_search`.
    static let migration = PostgresSchema.Migration(
        name: "catalogue-v1",
        sql: [
            """
            CREATE TABLE catalogue_books (
                seq BIGINT PRIMARY KEY,
                id TEXT COLLATE "C" NOT NULL UNIQUE,
                title TEXT NOT NULL,
                title_sort TEXT NOT NULL,
                title_key TEXT COLLATE "C" NOT NULL,
                authors TEXT[] NOT NULL,
                author_sort TEXT NOT NULL,
                author_key TEXT COLLATE "C" NOT NULL,
                isbn TEXT COLLATE "C",
                publisher TEXT,
                categories TEXT[] NOT NULL,
                cover_url TEXT,
                description TEXT,
                copies BIGINT NOT NULL,
                on_loan BIGINT NOT NULL DEFAULT 0,
                added_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                last_checkout_name TEXT,
                last_checkout_at TEXT COLLATE "C",
                search_title TEXT COLLATE "C" NOT NULL,
                search_authors TEXT COLLATE "C" NOT NULL,
                search_isbn TEXT COLLATE "C" NOT NULL,
                search_publisher TEXT COLLATE "C" NOT NULL,
                search_categories TEXT COLLATE "C" NOT NULL,
                search_all TEXT COLLATE "C" GENERATED ALWAYS AS (
                    search_title || search_authors || search_isbn || search_publisher || search_categories) STORED,
                search_words TSVECTOR NOT NULL
            )
            """,
            "CREATE INDEX catalogue_books_by_word ON catalogue_books USING gin (search_words)",
            "CREATE INDEX catalogue_books_by_title ON catalogue_books (title_key, seq)",
            "CREATE INDEX catalogue_books_by_author ON catalogue_books (author_key, title_key, seq)",
            "CREATE INDEX catalogue_books_by_isbn ON catalogue_books (isbn, seq)",
        ])
}
