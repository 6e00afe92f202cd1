import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStore

/// The catalogue read model files books as a librarian expects and searches by field, on SQLite.
@Suite("Catalogue filing and fielded search")
struct CatalogueFilingTests {
    let t: TestLibrary
    var catalogue: CatalogueUseCases { t.library.catalogue }

    init() throws { t = try TestLibrary() }

    func add(_ title: String, by authors: String..., isbn: String? = nil, publisher: String? = nil) async throws {
        _ = try await catalogue.addBook.execute(
            BookDraft(title: title, authors: authors, isbn: isbn, publisher: publisher), copies: 1, by: .cliOperator)
    }

    func titles(_ query: CatalogueQuery) async throws -> [String] {
        try await catalogue.listBooks.execute(query).items.map(\.details.title)
    }

    @Test func authorsAreListedBySurnameAndTitlesWithoutTheirArticle() async throws {
        try await add("White Teeth", by: "Zadie Smith")
        try await add("The Hobbit", by: "J. R. R. Tolkien")
        try await add("Zero", by: "Aaron Zimmer")
        try await add("A Wizard of Earthsea", by: "Ursula K. Le Guin")
        try await add("Germinal", by: "Émile Zola")
        try await add("Nana", by: "Emile Zola")
        try await add("Hobbit Wars", by: "Ludwig van Beethoven")
        #expect(
            try await titles(CatalogueQuery(sort: .author))
                == ["Hobbit Wars", "A Wizard of Earthsea", "White Teeth", "The Hobbit", "Zero", "Germinal", "Nana"])
        #expect(
            try await titles(CatalogueQuery(sort: .title))
                == ["Germinal", "The Hobbit", "Hobbit Wars", "Nana", "White Teeth", "A Wizard of Earthsea", "Zero"])
    }

    @Test func theReadModelKeepsTheFiledFormsAndTheirKeys() async throws {
        try await add("The Hobbit", by: "J. R. R. Tolkien", "Christopher Tolkien")
        let row = try await t.database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT title_sort, title_key, author_sort, author_key FROM catalogue_books")
        }
        #expect(row?["title_sort"] == "Hobbit" && row?["title_key"] == "hobbit")
        #expect(row?["author_sort"] == "Tolkien, J. R. R.; Tolkien, Christopher")
        #expect(row?["author_key"] == "tolkien, j. r. r.; tolkien, christopher")
    }

    @Test func aDatabaseFromBeforeFilingIsFiledAgainWhenOpened() async throws {
        let folder = TemporaryFolder()
        let old = try DatabaseQueue(path: folder.databasePath)
        try Schema.migrator.migrate(old, upTo: "v10-chain-key")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO catalogue_books (seq, id, title, title_key, authors, author_key, categories, copies, added_at, updated_at)
                    VALUES (1, '00000000-0000-0000-0000-000000000001', 'The Hobbit', 'the hobbit', '["J. R. R. Tolkien"]', 'j. r. r. tolkien',
                            '[]', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
                    """)
        }
        try old.close()
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        let row = try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT title_sort, title_key, author_sort, author_key FROM catalogue_books")
        }
        #expect(row?["title_sort"] == "Hobbit" && row?["title_key"] == "hobbit")
        #expect(row?["author_sort"] == "Tolkien, J. R. R." && row?["author_key"] == "tolkien, j. r. r.")
        try database.close()
    }

    @Test func frenchTitlesAreListedWithoutTheirArticleToo() async throws {
        for title in ["Les Misérables", "L’Étranger", "Madame Bovary", "Le Petit Prince", "Dune", "Lesbos", "Une saison en enfer"] {
            try await add(title, by: "A")
        }
        #expect(
            try await titles(CatalogueQuery(sort: .title))
                == ["Dune", "L’Étranger", "Lesbos", "Madame Bovary", "Les Misérables", "Le Petit Prince", "Une saison en enfer"])
    }

    @Test func aDatabaseFiledBeforeFrenchArticlesIsFiledAgainWhenOpened() async throws {
        let folder = TemporaryFolder()
        let old = try DatabaseQueue(path: folder.databasePath)
        try Schema.migrator.migrate(old, upTo: "v18-language")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO catalogue_books (seq, id, title, title_sort, title_key, authors, author_sort, author_key, categories, copies,
                                                 added_at, updated_at)
                    VALUES (1, '00000000-0000-0000-0000-000000000001', 'Les Misérables', 'Les Misérables', 'les miserables',
                            '["Victor Hugo"]', 'Hugo, Victor', 'hugo, victor', '[]', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
                    """)
        }
        try old.close()
        let database = try LibraryDatabase(path: folder.databasePath, durability: .off)
        let row = try await database.pool.read { db in try Row.fetchOne(db, sql: "SELECT title_sort, title_key FROM catalogue_books") }
        #expect(row?["title_sort"] == "Misérables" && row?["title_key"] == "miserables")
        try database.close()
    }

    @Test func fieldsLimitATermToTheirColumn() async throws {
        try await add("The Left Hand of Darkness", by: "Ursula K. Le Guin", isbn: "0-441-47812-3", publisher: "Ace")
        try await add("Guinness Book", by: "Norris McWhirter", publisher: "Left Hand Press")
        try await add("Dune", by: "Frank Herbert", isbn: "978-0-441-17271-9", publisher: "Chilton")
        let find = { (q: String) in try await titles(CatalogueQuery(sort: .title, text: q)) }
        #expect(try await find("guin") == ["Guinness Book", "The Left Hand of Darkness"])
        #expect(try await find("author:guin") == ["The Left Hand of Darkness"])
        #expect(try await find(#"author:"le guin""#) == ["The Left Hand of Darkness"])
        #expect(try await find(#"author:"guin le""#) == [])
        #expect(try await find("title:left") == ["The Left Hand of Darkness"])
        #expect(try await find("publisher:left") == ["Guinness Book"])
        #expect(try await find(#"publisher:"left hand" guin"#) == ["Guinness Book"])
        #expect(try await find("isbn:978-0-441-17271-9") == ["Dune"])
        #expect(try await find("isbn:0441172717") == ["Dune"])
        #expect(try await find("ISBN:0-441-47812-3 title:left") == ["The Left Hand of Darkness"])
        #expect(try await find("title:dune author:guin") == [])
    }

    @Test(
        "search syntax typed in q is text, never an SQLite error",
        arguments: [
            "\"", "\"\"", "dune\"", "*", "dune*", "-dune", "dune -", "NEAR", "NEAR(dune herbert)", "dune OR herbert", "dune AND",
            "NOT dune", "(dune", "dune)", "^dune", "title : dune", "{title}:dune", "title:(dune)", "dune:", ":dune", "10:30:00", "'",
            "dune;DROP TABLE events", "\u{00A0}dune", "a\"b\"c", "+dune", "dune\\",
        ])
    func searchSyntaxIsText(q: String) async throws {
        try await add("Dune", by: "Frank Herbert")
        let page = try await catalogue.listBooks.execute(CatalogueQuery(text: q))
        #expect(page.total <= 1)
    }

    @Test func aSearchThatCannotBeReadIsAFieldErrorOnQ() async throws {
        for q in ["auther:tolkien", "author:", "isbn:12345", #"subject:"sf""#, "d:u:n:e"] {
            await #expect {
                try await catalogue.listBooks.execute(CatalogueQuery(text: q))
            } throws: { error in
                (error as? InvalidInput)?.errors.map(\.field) == ["q"]
            }
        }
    }
}
