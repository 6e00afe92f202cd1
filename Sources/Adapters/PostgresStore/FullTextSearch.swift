import Domain

/// A catalogue search on PostgreSQL, with the meaning the SQLite store's FTS5 query gives it
/// (`FullTextQuery`): every term must match, a word as a word prefix, a phrase whole, an ISBN in
/// its ISBN-13 form, in its field or in any, text cut into `FullTextTokens` as FTS5 cuts it. A term
/// with no letter nor digit is dropped, as SQLite drops it; one FTS5 cuts into no token is left out
/// of the others, and matches nothing alone.
///
/// A book's words are lexemes of a `tsvector` (`FullTextWords`), so every token of every term is
/// looked up in its GIN index; a term of one token is decided there. A phrase (a term of several
/// tokens) is then checked as a needle in its fields' tokens (`PostgresCatalogueProjection.Filed`).
enum FullTextSearch {
    /// No search: every book.
    case everything
    /// A search no book matches.
    case nothing
    /// The books with all these words (a `tsquery`) and these phrases (a field, "all" for any, and a needle).
    case books(words: String, phrases: [(field: String, needle: String)])

    init(_ search: SearchTerms?) {
        let kept = (search?.terms ?? []).compactMap { term -> (SearchTerms.Term, String)? in
            let text: String
            switch term.value {
            case .word(let word): text = word
            case .phrase(let phrase): text = phrase
            case .isbn(let isbn): text = isbn.isbn13
            }
            // Tested on the term as FTS5 is given it, quoted, as `FullTextQuery` tests it (a quote
            // and a mark after it are one character).
            let quoted = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return quoted.contains(where: { $0.isLetter || $0.isNumber }) ? (term, text) : nil
        }
        guard !kept.isEmpty else {
            self = .everything
            return
        }
        var words: [String] = []
        var phrases: [(field: String, needle: String)] = []
        for (term, text) in kept {
            let tokens = FullTextTokens.of(text)
            guard !tokens.isEmpty else { continue }
            var prefix = false
            if case .word = term.value { prefix = true }
            var decided = tokens.count == 1
            for (index, token) in tokens.enumerated() {
                let (lexeme, cut) = FullTextWords.lexeme(token, in: term.field)
                decided = decided && !cut
                words.append(Self.quoted(lexeme) + (cut || (prefix && index == tokens.count - 1) ? ":*" : ""))
            }
            if !decided {
                let field = term.field.map(FullTextWords.column) ?? "all"
                phrases.append((field, " " + tokens.joined(separator: " ") + (prefix ? "" : " ")))
            }
        }
        self = words.isEmpty ? .nothing : .books(words: words.joined(separator: " & "), phrases: phrases)
    }

    /// A lexeme as a `tsquery` reads one, quoted.
    private static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}

/// A book's words as lexemes of its `search_words`: every token of its searched fields, marked
/// `w|` (`w|hobbit`), and every token of each field a search may name, marked with the field
/// (`t|hobbit`), so no prefix reaches across marks (a token holds no `|`). A token longer than
/// `maximumBytes` is cut there, and looked up as a prefix.
enum FullTextWords {
    static let maximumBytes = 200

    /// The lexemes of a book whose fields have these tokens.
    static func of(title: [String], authors: [String], isbn: [String], publisher: [String], categories: [String]) -> [String] {
        let fields: [(SearchTerms.Field?, [String])] = [
            (nil, title + authors + isbn + publisher + categories), (.title, title), (.author, authors), (.isbn, isbn),
            (.publisher, publisher),
        ]
        var lexemes = Set<String>()
        for (field, tokens) in fields {
            for token in tokens { lexemes.insert(lexeme(token, in: field).lexeme) }
        }
        return lexemes.sorted()
    }

    /// The lexeme of `token` in `field` (any when nil), and whether the token was cut.
    static func lexeme(_ token: String, in field: SearchTerms.Field?) -> (lexeme: String, cut: Bool) {
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in token.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > maximumBytes { return (mark(field) + String(kept), true) }
            kept.append(scalar)
        }
        return (mark(field) + token, false)
    }

    private static func mark(_ field: SearchTerms.Field?) -> String {
        switch field {
        case nil: "w|"
        case .title: "t|"
        case .author: "a|"
        case .isbn: "i|"
        case .publisher: "p|"
        }
    }

    /// The column of the field's tokens (`search_title`…), as the search names it.
    static func column(_ field: SearchTerms.Field) -> String {
        switch field {
        case .author: "authors"
        case .title: "title"
        case .isbn: "isbn"
        case .publisher: "publisher"
        }
    }
}
