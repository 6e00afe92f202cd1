import Application
import Domain
import Logging
import PostgresNIO

/// Numbers catalogue books 1, 2, 3… in the order they were added, as SQLite's
/// `CatalogueNumbersProjection` does (same name, same numbers): `catalogue_numbers` keeps each
/// book's number, and `catalogue_number_last` the last number given, as SQLite's AUTOINCREMENT
/// keeps it: a number is never given twice, not even the one a book added again (after it was
/// withdrawn) was refused. Appends are one at a time under the writer's lock, so no two take one.
struct PostgresCatalogueNumbersProjection: PostgresProjection {
    let name = "catalogue-numbers"

    func reset(_ session: SQLSession) async throws {
        try await session.run("DELETE FROM catalogue_numbers")
        try await session.run("UPDATE catalogue_number_last SET number = 0")
    }

    func apply(_ recorded: RecordedEvent, _ session: SQLSession) async throws {
        guard case .book(.added(let e)) = recorded.event else { return }
        try await session.run(
            """
            WITH next AS (UPDATE catalogue_number_last SET number = number + 1 RETURNING number)
            INSERT INTO catalogue_numbers (number, book_id) SELECT number, \(e.book.description) FROM next
            ON CONFLICT (book_id) DO NOTHING
            """)
    }

    /// The `catalogue_numbers` table (SQLite's of `v17-prolific`) and the last number given.
    static let migration = PostgresSchema.Migration(
        name: "catalogue-numbers-v1",
        sql: [
            "CREATE TABLE catalogue_numbers (number BIGINT PRIMARY KEY, book_id TEXT COLLATE \"C\" NOT NULL UNIQUE)",
            "CREATE TABLE catalogue_number_last (id INTEGER PRIMARY KEY CHECK (id = 1), number BIGINT NOT NULL)",
            "INSERT INTO catalogue_number_last (id, number) VALUES (1, 0)",
        ])
}

/// The catalogue numbers read model on PostgreSQL.
public struct PostgresCatalogueNumbers: CatalogueNumbers {
    let client: PostgresPool
    let logger: Logger

    public func number(of book: BookID) async throws -> Int? {
        try await client.session(logger) { session in
            try await session.value("SELECT number FROM catalogue_numbers WHERE book_id = \(book.description)", as: Int.self)
        }
    }

    public func book(numbered number: Int) async throws -> BookID? {
        try await client.session(logger) { session in
            try await session.value("SELECT book_id FROM catalogue_numbers WHERE number = \(number)", as: String.self)
                .flatMap(BookID.init)
        }
    }

    public func numbered() async throws -> [(number: Int, book: BookID)] {
        try await client.session(logger) { session in
            try await session.rows(
                """
                SELECT catalogue_numbers.number, catalogue_numbers.book_id FROM catalogue_numbers
                JOIN catalogue_books ON catalogue_books.id = catalogue_numbers.book_id ORDER BY catalogue_numbers.number
                """, as: (Int, String).self
            ).compactMap { number, id in BookID(id).map { (number: number, book: $0) } }
        }
    }
}

extension PostgresLibrary {
    /// The small numbers the Prolific API names catalogue books by.
    public var catalogueNumbers: PostgresCatalogueNumbers { PostgresCatalogueNumbers(client: client, logger: logger) }
}
