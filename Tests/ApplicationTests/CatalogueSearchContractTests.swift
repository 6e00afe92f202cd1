import Application
import Domain
import Foundation
import Testing

/// The catalogue's searches, part of its contract: word prefixes in every field, fields and
/// phrases, ISBNs in either form, accents and case folded, long searches read like short ones.
extension CatalogueContractTests {
    @Test(
        "a search finds word prefixes in every field, fields limit a term, phrases match whole and in order", arguments: LibraryFactory.all)
    func fields(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.add(1, "The Left Hand of Darkness", by: ["Ursula K. Le Guin"], isbn: "0-441-47812-3", publisher: "Ace", lib)
        try await Self.add(2, "Guinness Book", by: ["Norris McWhirter"], publisher: "Left Hand Press", categories: ["records"], lib)
        try await Self.add(3, "Dune", by: ["Frank Herbert"], isbn: "978-0-441-17271-9", publisher: "Chilton", categories: ["sf"], lib)
        let find = { (q: String) in try await Self.titles(CatalogueQuery(sort: .title, text: q), lib) }
        #expect(try await find("guin") == ["Guinness Book", "The Left Hand of Darkness"])
        #expect(try await find("GUIN darkn") == ["The Left Hand of Darkness"])
        #expect(try await find("author:guin") == ["The Left Hand of Darkness"])
        #expect(try await find(#"author:"le guin""#) == ["The Left Hand of Darkness"])
        #expect(try await find(#"author:"guin le""#) == [])
        #expect(try await find(#""hand of""#) == ["The Left Hand of Darkness"])
        #expect(try await find(#""hand darkness""#) == [])
        #expect(try await find(#""hand dark""#) == [], "a phrase matches whole words")
        #expect(try await find("title:left") == ["The Left Hand of Darkness"])
        #expect(try await find("publisher:left") == ["Guinness Book"])
        #expect(try await find(#"publisher:"left hand" guin"#) == ["Guinness Book"])
        #expect(try await find("record") == ["Guinness Book"], "categories are searched without a field")
        #expect(try await find("title:dune author:guin") == [])
        #expect(try await find("zzz") == [])
        await lib.postgres?.close()
    }

    @Test("an ISBN is found whichever form it is typed in, and by the start of either form", arguments: LibraryFactory.all)
    func isbns(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.add(1, "The Left Hand of Darkness", by: ["Ursula K. Le Guin"], isbn: "0-441-47812-3", lib)
        try await Self.add(2, "Dune", by: ["Frank Herbert"], isbn: "978-0-441-17271-9", lib)
        try await Self.add(3, "Nines", by: ["X"], isbn: "0-8044-2957-X", lib)
        let find = { (q: String) in try await Self.titles(CatalogueQuery(sort: .title, text: q), lib) }
        for q in ["isbn:978-0-441-17271-9", "isbn:0441172717", "0-441-17271-7", "9780441172719", "0441172717 dune"] {
            #expect(try await find(q) == ["Dune"], "\(q)")
        }
        #expect(try await find("ISBN:0-441-47812-3 title:left") == ["The Left Hand of Darkness"])
        #expect(try await find("080442957x") == ["Nines"])
        #expect(try await find("978044") == ["Dune", "The Left Hand of Darkness"], "a number is a prefix of the ISBN-13")
        #expect(try await find("04411") == ["Dune"], "and of the ISBN-10")
        #expect(try await find("9780441172710") == [], "a number that is no ISBN is a word")
        await lib.postgres?.close()
    }

    @Test("accents and case are folded both ways, in composed and decomposed text", arguments: LibraryFactory.all)
    func accents(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.add(1, "Les Misérables", by: ["Victor Hugo"], lib)
        try await Self.add(2, "Cafe\u{301} society", by: ["Ærø Łódź"], lib)
        try await Self.add(3, "Straße nach İstanbul", by: ["Ǖber"], lib)
        try await Self.add(4, "ΆΛΦΑ", by: ["Достоевский"], lib)
        let find = { (q: String) in try await Self.titles(CatalogueQuery(sort: .oldest, text: q), lib) }
        #expect(try await find("miserables") == ["Les Misérables"])
        #expect(try await find("MISÉR") == ["Les Misérables"])
        #expect(try await find("Mise\u{301}rables") == ["Les Misérables"])
        #expect(try await find("café") == ["Café society"])
        #expect(try await find("cafe") == ["Café society"])
        #expect(try await find("ærø") == ["Café society"])
        #expect(try await find("aero") == [], "ligatures and slashed letters stay letters of their own")
        #expect(try await find("łodz") == ["Café society"])
        #expect(try await find("strasse") == [])
        #expect(try await find("STRAẞE") == ["Straße nach İstanbul"])
        #expect(try await find("istanbul uber") == ["Straße nach İstanbul"])
        #expect(try await find("άλφα") == ["ΆΛΦΑ"])
        #expect(try await find("αλφα") == [], "Greek keeps its accents")
        #expect(try await find("достоев") == ["ΆΛΦΑ"])
        await lib.postgres?.close()
    }

    /// Search syntax of every search engine is text (SQLite's `CatalogueFilingTests`). A term with
    /// no letter nor digit is dropped (so is "ि", a mark the quote around it takes); one whose
    /// letters are not indexed ("ⓓ") matches nothing; a word with punctuation is its words in a row.
    @Test(
        "special characters are text, never an error", arguments: LibraryFactory.all,
        [
            "\"", "\"\"", "dune\"", "*", "dune*", "-dune", "dune -", "NEAR", "NEAR(dune herbert)", "dune OR herbert", "dune AND",
            "NOT dune", "(dune", "dune)", "^dune", "title : dune", "{title}:dune", "title:(dune)", "dune:", ":dune", "10:30:00", "'",
            "dune;DROP TABLE events", "\u{00A0}dune", "a\"b\"c", "+dune", "dune\\", "%", "_", "du%", "d_ne", "'; --", "\u{301}",
            "ⓓune", "ⓓ", "ि", "dune ि", "frank-herb", "herbert's", "🙂", "dune 🙂", "$1", "dune\u{2028}herbert",
        ])
    func specialCharacters(library: LibraryFactory, q: String) async throws {
        let lib = try await library.make()
        try await Self.add(1, "Dune", by: ["Frank Herbert"], lib)
        try await Self.add(2, "Frank-Herbert's Notes", by: ["N"], lib)
        let page = try await lib.catalogue.page(CatalogueQuery(text: q), .first)
        let expected: [String: Int] = [
            "*": 2, "'": 2, "_": 2, "%": 2, "\"": 2, "\"\"": 2, "🙂": 2, "\u{301}": 2, "ि": 2, "ⓓ": 0, "ⓓune": 0, "dune ि": 1,
            "frank-herb": 2, "herbert's": 1, "du%": 1, "d_ne": 0, "dune 🙂": 1, "$1": 0, "NEAR": 0, "'; --": 2,
        ]
        if let count = expected[q] { #expect(page.total == count, "\(q)") } else { #expect(page.total <= 2) }
        #expect(page.items.count == page.total)
        await lib.postgres?.close()
    }

    @Test("a very long search is read like a short one", arguments: LibraryFactory.all)
    func longSearches(library: LibraryFactory) async throws {
        let lib = try await library.make()
        try await Self.add(1, "Dune", by: ["Frank Herbert"], lib)
        let many = Array(repeating: "du", count: 400).joined(separator: " ")
        #expect(try await lib.catalogue.page(CatalogueQuery(text: many), .first).total == 1)
        #expect(try await lib.catalogue.page(CatalogueQuery(text: many + " x"), .first).total == 0)
        let long = String(repeating: "dune", count: 5_000)
        #expect(try await lib.catalogue.page(CatalogueQuery(text: long), .first).total == 0)
        #expect(try await lib.catalogue.page(CatalogueQuery(text: "\"" + many), .first).total == 0)
        // A word of 300 letters, looked up by its start and checked whole.
        let word = String(repeating: "é", count: 300) + "x"
        try await Self.add(2, word + " tail", by: ["B"], lib)
        for (q, total) in [
            (String(repeating: "e", count: 250), 1), (word, 1), ("\"\(word) tail\"", 1), (word + "y", 0), ("\"\(word) t\"", 0),
            ("title:\(word)", 1), ("author:\(word)", 0),
        ] {
            #expect(try await lib.catalogue.page(CatalogueQuery(text: q), .first).total == total, "\(q.suffix(8))")
        }
        await lib.postgres?.close()
    }
}
