import Application
import Domain
import Foundation
import GRDB
import Testing

@testable import PostgresStore

/// Characters the searches below are made of: letters with and without accents, in several
/// scripts, combining marks, ligatures, digits, punctuation, symbols and search syntax.
private let pool = Array(
    "aeiouxyzAEZ019 -'\"’:*_%()ÉéèçÇßẞæŒøŁłİıſǕǖǅΆάΩωΣσςЁёЙйДоßﬁﬀ日本語中文한국어हिन्दीاَلْ١٢Ⅻⅻ½²ⓐⒶ🙂\u{301}\u{308}\u{327}\u{305}\u{20DD}\u{200D}\u{00A0}\u{2028}\u{FEFF}\u{E000}"
)

/// Seeded random choices, so a failure repeats.
private struct Dice: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

/// The PostgreSQL catalogue cuts text into the words SQLite's FTS5 index cuts it into, and so
/// finds what the SQLite catalogue finds, in the same order.
@Suite("Catalogue search: PostgreSQL as SQLite")
struct CatalogueSearchParityTests {
    /// The tokens SQLite's FTS5 (`unicode61 remove_diacritics 2`, the catalogue's tokenizer) makes of each text.
    static func sqliteTokens(_ texts: [String]) throws -> [[String]] {
        let db = try DatabaseQueue()
        return try db.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5 (a, tokenize = 'unicode61 remove_diacritics 2')")
            try db.execute(sql: "CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
            for (index, text) in texts.enumerated() {
                try db.execute(sql: "INSERT INTO t (rowid, a) VALUES (?, ?)", arguments: [index + 1, text])
            }
            var tokens = Array(repeating: [String](), count: texts.count)
            for row in try Row.fetchAll(db, sql: "SELECT doc, term FROM v ORDER BY doc, offset") {
                tokens[(row[0] as Int) - 1].append(row[1])
            }
            return tokens
        }
    }

    @Test("every character sampled is a separator, a letter folded the same way, or a diacritic inside a word, as in FTS5")
    func characters() throws {
        var codes = Array(1..<0x3000) + Array(stride(from: 0x3000, through: 0x10FFFF, by: 211))
        for item in (FullTextTokenTables.separators + " " + FullTextTokenTables.folds).split(whereSeparator: \.isWhitespace) {
            let first = UInt32(item.prefix { $0.isHexDigit }, radix: 16)!
            codes += [Int(first) - 1, Int(first), Int(first) + 1]
        }
        let scalars = codes.compactMap { Unicode.Scalar(UInt32($0)) }
        let texts = scalars.flatMap { ["\($0)", "a\($0)b", "\($0)a"] }
        let expected = try Self.sqliteTokens(texts)
        var differences: [String] = []
        for (text, tokens) in zip(texts, expected) where FullTextTokens.of(text) != tokens {
            differences.append("\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(FullTextTokens.of(text)) \(tokens)")
        }
        #expect(differences.isEmpty, "\(differences.prefix(20))")
    }

    @Test("random texts are cut the same way")
    func texts() throws {
        var dice = Dice(state: 22)
        let texts = (0..<3_000).map { _ in String((0..<Int.random(in: 1...12, using: &dice)).map { _ in pool.randomElement(using: &dice)! })
        }
        let expected = try Self.sqliteTokens(texts)
        let differences = zip(texts, expected).filter { FullTextTokens.of($0) != $1 }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    /// Books with text in several scripts and forms.
    static let corpus: [BookDetails] = corpusRows.map { title, authors, isbn, publisher, categories in
        BookDetails(title: title, authors: authors, isbn: isbn.map { try! ISBN(parsing: $0) }, publisher: publisher, categories: categories)
    }
    private static let corpusRows: [(String, [String], String?, String?, [String])] = [
        ("Les Misérables", ["Victor Hugo"], "0-441-47812-3", "Éditions de l'Aube", ["roman", "classique"]),
        ("Cafe\u{301} Society", ["Ærø Łódź", "Jean-Paul Sartre"], nil, "Gallimard", ["philosophie"]),
        ("Straße nach İstanbul", ["Ǖber Strasse"], "978-0-441-17271-9", nil, []),
        ("ΆΛΦΑ και ωμέγα", ["Φιόντορ Ντοστογιέφσκι"], nil, "Ψ", ["Ελληνικά"]),
        ("Преступление и наказание", ["Фёдор Достоевский"], "0-8044-2957-X", "Русский вестник", ["роман"]),
        ("日本語の本", ["村上春樹"], nil, "講談社", ["小説"]),
        ("हिन्दी कहानियाँ", ["प्रेमचंद"], nil, nil, ["कथा"]),
        ("Don't Panic: the H2G2 guide (2nd ed.)", ["Douglas Adams", "Neil Gaiman"], nil, "Pan", ["sf", "humour"]),
        ("L’Étranger", ["Albert Camus"], nil, "Gallimard", ["roman"]),
        ("ﬁnal ﬀ Œuvre", ["Anonyme"], nil, "O'Reilly & Sons", ["x-ray", "½ measures"]),
        ("🙂 Emoji ⓐ Ⓐ Ⅻ²", ["A. N. Other"], nil, nil, ["misc"]),
        ("The Hobbit", ["J. R. R. Tolkien", "Christopher Tolkien"], "0-261-10221-4", "Allen & Unwin", ["fantasy"]),
        ("Hobbit Wars", ["Ludwig van Beethoven"], nil, "Left Hand Press", ["music"]),
        ("ﾃｽﾄ ＡＢＣ full", ["Ｆｕｌｌ Ｗｉｄｔｈ"], nil, nil, []),
    ]

    /// Searches of the corpus' own words, their starts, pairs of them, fields and random text.
    static func searches() -> [String] {
        var searches = [
            "", "*", "\"", "\"\"", "-", "'", "isbn:0441478123", "9780441172719", "0-8044-2957-x", "978", "0441", "\"hobbit wars\"",
            "\"the hobbit\" tolkien", "\"tolkien christopher\"", "\"adams neil\"", "dont", "don t", "don't", "h2g2", "2nd", "h2",
        ]
        for book in corpus {
            let texts = [book.title, book.publisher ?? ""] + book.authors + book.categories
            for text in texts {
                let words = text.split(separator: " ").map(String.init)
                for word in words {
                    searches += [word, String(word.prefix(1)), String(word.prefix(3)), word.lowercased(), word.uppercased()]
                    searches += ["author:\(word)", "title:\(word.prefix(2))", "publisher:\(word)"]
                }
                for (first, second) in zip(words, words.dropFirst()) {
                    searches += ["\"\(first) \(second)\"", "\(first) \(second)", "\"\(second) \(first)\"", "author:\"\(first) \(second)\""]
                }
            }
        }
        var dice = Dice(state: 7)
        for _ in 0..<300 {
            searches.append(String((0..<Int.random(in: 1...8, using: &dice)).map { _ in pool.randomElement(using: &dice)! }))
        }
        return searches
    }

    @Test(
        "every search finds the same books in the same order, with the same total, on both stores",
        .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
    func searchesMatch() async throws {
        try await Self.compare(Self.corpus, Self.searches(), atLeast: 500, finding: 300)
    }

    @Test(
        "books and searches of random characters find the same books on both stores",
        .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
    func randomSearchesMatch() async throws {
        var dice = Dice(state: 2026)
        func text(_ length: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: length, using: &dice)).map { _ in pool.randomElement(using: &dice)! })
        }
        let books = (0..<40).map { _ in
            BookDetails(title: text(1...30), authors: [text(1...15), text(1...15)], publisher: text(0...10), categories: [text(1...10)])
        }
        // Pieces of the books' own text, so that searches find some of them, and a field now and then.
        var searches: [String] = []
        for book in books {
            for piece in [book.title, book.authors[0], book.categories[0]] {
                let characters = Array(piece)
                let start = Int.random(in: 0..<characters.count, using: &dice)
                let end = Int.random(in: start...characters.count, using: &dice)
                let cut = String(characters[start..<end])
                searches += [cut, "\"\(cut)\"", "author:\(cut)", "title:\(cut.prefix(3))", "\(cut) \(text(1...3))"]
            }
        }
        try await Self.compare(books, searches, atLeast: 400, finding: 100)
    }

    /// Adds `books` to a SQLite and a PostgreSQL library, then expects every search to find the
    /// same page (ids in order) and total on both, in title and author order in turn.
    static func compare(_ books: [BookDetails], _ searches: [String], atLeast: Int, finding: Int) async throws {
        let sqlite = LibraryUnderTest(sqlite: try SQLiteUnderTest(durability: .off))
        let postgres = LibraryUnderTest(postgres: try await PostgresTestServer.library())
        for lib in [sqlite, postgres] {
            for (n, details) in books.enumerated() {
                let id = CatalogueContractTests.book(n)
                try await lib.append(.book(id), .book(.added(BookAdded(book: id, details: details, copies: 1))))
            }
        }
        var compared = 0
        var found = 0
        for text in searches {
            let query = CatalogueQuery(sort: compared % 2 == 0 ? .title : .author, text: text)
            guard (try? query.searchTerms()) != nil else { continue }
            let want = try await sqlite.catalogue.page(query, PageRequest(limit: 100))
            let got = try await postgres.catalogue.page(query, PageRequest(limit: 100))
            #expect(got.items.map(\.id) == want.items.map(\.id) && got.total == want.total, "\(text)")
            compared += 1
            if want.total > 0 && want.total < books.count { found += 1 }
        }
        #expect(compared >= atLeast && found >= finding, "\(compared) searches, \(found) finding some books and not all")
        await postgres.postgres?.close()
    }
}
