import Domain
import Testing

/// How a typed search is read: free words, phrases, fields; never a search engine's syntax.
@Suite("Search terms")
struct SearchTermsTests {
    typealias Term = SearchTerms.Term
    let dune = try! ISBN(parsing: "9780441172719")

    func parse(_ text: String, _ other: SearchTerms.OtherFields = .refused) -> Result<[Term], SearchTerms.Problem> {
        Result { () throws(SearchTerms.Problem) in try SearchTerms(parsing: text, otherFields: other).terms }
    }

    @Test func freeWordsAndPhrases() {
        #expect(parse("  left  hand ") == .success([Term(.word("left")), Term(.word("hand"))]))
        #expect(parse(#"darkness "left  hand""#) == .success([Term(.word("darkness")), Term(.phrase("left hand"))]))
    }

    @Test func fieldsTakeAWordOrAQuotedPhrase() {
        #expect(
            parse(#"author:"le guin" TITLE:left dark publisher:ace"#)
                == .success([
                    Term(.phrase("le guin"), in: .author), Term(.word("left"), in: .title), Term(.word("dark")),
                    Term(.word("ace"), in: .publisher),
                ]))
    }

    @Test func isbnsAreReadHoweverTyped() {
        #expect(parse("isbn:978-0-441-17271-9") == .success([Term(.isbn(dune), in: .isbn)]))
        #expect(parse("isbn:0441172717") == .success([Term(.isbn(dune), in: .isbn)]))
        #expect(parse("0-441-17271-7") == .success([Term(.isbn(dune))]))
        #expect(parse(#"isbn:"978 0 441 17271 9""#) == .success([Term(.isbn(dune), in: .isbn)]))
    }

    @Test func aBadISBNInItsFieldIsRefused() {
        #expect(parse("isbn:12345") == .failure(.invalidISBN("12345", .wrongLength(5))))
    }

    @Test func anUnknownFieldIsRefusedUnlessKept() {
        #expect(parse("auther:tolkien") == .failure(.unknownField("auther")))
        #expect(parse(#"subject:"epic fantasy""#) == .failure(.unknownField("subject")))
        #expect(parse("subject:fantasy", .keptAsWords) == .success([Term(.word("subject:fantasy"))]))
        #expect(parse(#"subject:"epic fantasy""#, .keptAsWords) == .success([Term(.word(#"subject:"epic fantasy""#))]))
    }

    @Test func anEmptyFieldIsRefused() {
        #expect(parse("author:") == .failure(.emptyField(.author)))
        #expect(parse("title: hobbit") == .failure(.emptyField(.title)))
        #expect(parse(#"title:"""#) == .failure(.emptyField(.title)))
    }

    @Test func otherColonsAndSearchSyntaxAreText() {
        #expect(parse("Dune: Messiah") == .success([Term(.word("Dune")), Term(.word("Messiah"))]))
        #expect(parse("10:30 :x") == .success([Term(.word("10:30")), Term(.word(":x"))]))
        #expect(
            parse(#"a* -b NEAR(c d) OR ^e"#)
                == .success(["a*", "-b", "NEAR(c", "d)", "OR", "^e"].map { Term(.word($0)) }))
    }

    @Test func anOpenQuoteClosesAtTheEnd() {
        #expect(parse(#""left hand"#) == .success([Term(.phrase("left hand"))]))
        #expect(parse(#"author:"le guin"#) == .success([Term(.phrase("le guin"), in: .author)]))
    }

    @Test func theCanonicalSpelling() throws {
        let terms = try SearchTerms(parsing: #"  Author:"le   guin" isbn:0-441-17271-7 dark "left hand" "#)
        #expect(terms.canonical == #"author:"le guin" isbn:9780441172719 dark "left hand""#)
    }
}
