import Domain
import Testing

/// How the catalogue files titles and authors, on the pure functions.
@Suite("Sort keys")
struct SortKeysTests {
    @Test(
        "a leading English article is not filed",
        arguments: [
            ("The Hobbit", "Hobbit"), ("the hobbit", "hobbit"), ("THE HOBBIT", "HOBBIT"), ("A Wizard of Earthsea", "Wizard of Earthsea"),
            ("An Instance of the Fingerpost", "Instance of the Fingerpost"), ("Theatre of Cruelty", "Theatre of Cruelty"),
            ("Anathem", "Anathem"), ("A", "A"), ("The", "The"), ("  The   Road ", "Road"), ("'Salem's Lot", "Salem's Lot"),
            ("...And Then There Were None", "And Then There Were None"), ("The 39 Steps", "39 Steps"), ("Dune", "Dune"),
        ])
    func titles(title: String, filed: String) {
        #expect(SortKeys.titleSort(title) == filed)
    }

    @Test(
        "a leading French article is not filed either, whole words only",
        arguments: [
            ("Les Misérables", "Misérables"), ("Le Petit Prince", "Petit Prince"), ("La Peste", "Peste"),
            ("L'Étranger", "Étranger"), ("L’Étranger", "Étranger"), ("l'écume des jours", "écume des jours"),
            ("Un sac de billes", "sac de billes"), ("Une saison en enfer", "saison en enfer"),
            // Not an article: part of a word, or the whole title.
            ("Lesbos", "Lesbos"), ("Léon", "Léon"), ("Unbroken", "Unbroken"), ("Une", "Une"), ("Les", "Les"), ("L'", "L'"),
            ("Latitudes", "Latitudes"),
            // Books carry no language, so only the first article goes: "La La Land" files under "La Land".
            ("La La Land", "La Land"),
        ])
    func frenchTitles(title: String, filed: String) {
        #expect(SortKeys.titleSort(title) == filed)
    }

    @Test func frenchTitlesFileWhereALibrarianLooksForThem() {
        func title(_ text: String) -> String { SortKeys.collationKey(SortKeys.titleSort(text)) }
        let titles = ["Les Misérables", "L’Étranger", "Madame Bovary", "Le Petit Prince", "Dune", "Une saison en enfer"]
        #expect(
            titles.sorted { title($0) < title($1) } == [
                "Dune", "L’Étranger", "Madame Bovary", "Les Misérables", "Le Petit Prince", "Une saison en enfer",
            ])
    }

    @Test(
        "authors are filed by surname",
        arguments: [
            ("J. R. R. Tolkien", "Tolkien, J. R. R."), ("Frank Herbert", "Herbert, Frank"), ("Ursula K. Le Guin", "Le Guin, Ursula K."),
            ("Ludwig van Beethoven", "Beethoven, Ludwig van"), ("Vincent van Gogh", "Gogh, Vincent van"),
            ("Jean de La Fontaine", "La Fontaine, Jean de"), ("Robert De Niro", "De Niro, Robert"),
            ("Martin Luther King Jr.", "King, Martin Luther, Jr."), ("Martin Luther King, Jr.", "King, Martin Luther, Jr."),
            ("King, Martin Luther, Jr.", "King, Martin Luther, Jr."), ("Tolkien, J. R. R.", "Tolkien, J. R. R."),
            ("Plato", "Plato"), ("  Frank   Herbert ", "Herbert, Frank"), ("Émile Zola", "Zola, Émile"),
        ])
    func authors(name: String, filed: String) {
        #expect(SortKeys.authorSort(name) == filed)
    }

    @Test func aBookIsFiledUnderEveryAuthorFirstAuthorFirst() {
        #expect(SortKeys.authorsSort(["Terry Pratchett", "Neil Gaiman"]) == "Pratchett, Terry; Gaiman, Neil")
    }

    @Test func keysFoldCaseAccentsAndSpaces() {
        #expect(SortKeys.collationKey("Émile") == SortKeys.collationKey("emile"))
        #expect(SortKeys.collationKey("ÆSOP  Øresund Straße") == "aesop oresund strasse")
        #expect(SortKeys.collationKey("Ｔｏｋｙｏ") == "tokyo")
    }

    @Test func keysOrderAsALibrarianExpects() {
        func key(_ name: String) -> String { SortKeys.collationKey(SortKeys.authorSort(name)) }
        let names = ["Zadie Smith", "Aaron Zimmer", "Émile Zola", "Emily Brontë", "anne smith", "John Smithson"]
        #expect(
            names.sorted { key($0) < key($1) } == [
                "Emily Brontë", "anne smith", "Zadie Smith", "John Smithson", "Aaron Zimmer", "Émile Zola",
            ])
        let titles = ["The Hobbit", "Hobbit Wars", "A Game of Thrones", "Zen", "the hobbit"]
        func title(_ text: String) -> String { SortKeys.collationKey(SortKeys.titleSort(text)) }
        #expect(
            titles.sorted { (title($0), $0) < (title($1), $1) } == ["A Game of Thrones", "The Hobbit", "the hobbit", "Hobbit Wars", "Zen"])
    }
}

/// The ASCII fast path of `collationKey` against Foundation's folding (the path any other text takes).
@Suite("Sort keys: ASCII fast path")
struct SortKeysASCIITests {
    /// A deterministic mix of every ASCII byte, white space and letters of both cases.
    static let samples: [String] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + [" ", " ", "\t", "\r\n", "A", "z", "Q"]
        return (0..<2_000).map { _ in (0..<Int(next() % 12)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }.joined() }
    }()

    @Test func asciiTextFoldsAsFoundationFoldsIt() {
        for text in Self.samples {
            // A leading "É" sends the text through Foundation; it folds to "e" and changes nothing after it.
            let key = SortKeys.collationKey(text)
            let expected = key.isEmpty ? "e" : (text.first?.isWhitespace == true ? "e " : "e") + key
            #expect(SortKeys.collationKey("É" + text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func spacesCollapseAndCaseFolds() {
        #expect(SortKeys.collationKey("  The\t\tHOBBIT \r\n") == "the hobbit")
        #expect(SortKeys.collationKey("") == "")
        #expect(SortKeys.collationKey(" \n ") == "")
    }

    @Test func anApostropheCountsAloneNotUnderAnAccent() {
        #expect(SortKeys.titleSort("l’ÉCUME") == "ÉCUME")
        #expect(SortKeys.titleSort("L\u{2019}\u{301}Été") == "L\u{2019}\u{301}Été")
    }
}
