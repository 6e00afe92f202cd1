import Application
import Domain
import GRDB

/// Numbers catalogue books 1, 2, 3… in the order they were added (`catalogue_numbers`, an
/// AUTOINCREMENT key: a number is never given twice, and stays with its book after the book
/// leaves the catalogue). A rebuild replays the log in order and so gives every book its number again.
struct CatalogueNumbersProjection: SQLiteProjection {
    let name = "catalogue-numbers"

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE catalogue_numbers (
                    number INTEGER PRIMARY KEY AUTOINCREMENT,
                    book_id TEXT NOT NULL UNIQUE
                );
                """)
    }

    func reset(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM catalogue_numbers; DELETE FROM sqlite_sequence WHERE name = 'catalogue_numbers';")
    }

    func apply(_ recorded: RecordedEvent, _ db: Database) throws {
        guard case .book(.added(let e)) = recorded.event else { return }
        try db.cached(sql: "INSERT OR IGNORE INTO catalogue_numbers (book_id) VALUES (?)", arguments: [e.book.description])
    }
}

/// The catalogue numbers read model.
public struct SQLiteCatalogueNumbers: CatalogueNumbers {
    let reads: ReadConnections

    public func number(of book: BookID) async throws -> Int? {
        try reads.read { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT number FROM catalogue_numbers WHERE book_id = ?"), arguments: [book.description])
        }
    }

    public func book(numbered number: Int) async throws -> BookID? {
        try reads.read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT book_id FROM catalogue_numbers WHERE number = ?"), arguments: [number])
                .flatMap(BookID.init)
        }
    }

    public func numbered() async throws -> [(number: Int, book: BookID)] {
        try reads.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT catalogue_numbers.number, catalogue_numbers.book_id FROM catalogue_numbers
                    JOIN catalogue_books ON catalogue_books.id = catalogue_numbers.book_id ORDER BY catalogue_numbers.number
                    """
            ).compactMap { row in BookID(row[1] as String).map { (number: row[0] as Int, book: $0) } }
        }
    }
}
