/// A search as a person types it: free words, "quoted phrases", and fields with a word or a
/// quoted phrase (`author:tolkien`, `author:"le guin"`, `title:hobbit`, `publisher:ace`,
/// `isbn:978-0-441-17271-9`). Every character is text: operators of a search engine (`*`, `-`,
/// `NEAR`, `OR`) mean nothing here, so the adapters quote whatever they pass on. A quote left open
/// closes at the end.
public struct SearchTerms: Equatable, Sendable {
    /// The fields a term can be limited to.
    public enum Field: String, CaseIterable, Sendable {
        case author, title, isbn, publisher
    }

    /// What a term matches.
    public enum Value: Equatable, Sendable {
        /// A word, matched as the start of a word.
        case word(String)
        /// Words matched whole, next to each other and in this order.
        case phrase(String)
        /// An ISBN, matched whole in its ISBN-13 form, however it was typed.
        case isbn(ISBN)
    }

    /// One term, limited to `field` when one was given.
    public struct Term: Equatable, Sendable {
        public let field: Field?
        public let value: Value
        public init(_ value: Value, in field: Field? = nil) {
            self.field = field
            self.value = value
        }
    }

    /// Why a search cannot be read.
    public enum Problem: Error, Equatable, Sendable {
        /// `name:` names no field.
        case unknownField(String)
        /// `author:` with nothing after it.
        case emptyField(Field)
        /// `isbn:` followed by something that is not an ISBN.
        case invalidISBN(String, ISBN.Problem)
    }

    /// What to do with a field this search does not know (`subject:fantasy`).
    public enum OtherFields: Sendable {
        /// A clear refusal: the catalogue searches only its own fields.
        case refused
        /// Kept whole as a word, for a search engine that knows more fields (Open Library).
        case keptAsWords
    }

    public let terms: [Term]

    public init(terms: [Term]) { self.terms = terms }

    /// Reads `text`; a word that parses as an ISBN is one.
    public init(parsing text: String, otherFields: OtherFields = .refused) throws(Problem) {
        var reader = SearchTermReader(text, otherFields: otherFields)
        var terms: [Term] = []
        while let term = try reader.next() { terms.append(term) }
        self.terms = terms
    }

    /// The search written back in one canonical spelling (fields in lower case, ISBNs as
    /// ISBN-13, phrases quoted): the syntax Open Library's `q` reads too.
    public var canonical: String {
        terms.map { term in
            let value: String
            switch term.value {
            case .word(let word): value = word
            case .phrase(let phrase): value = "\"\(phrase)\""
            case .isbn(let isbn): value = isbn.isbn13
            }
            return term.field.map { "\($0.rawValue):\(value)" } ?? value
        }.joined(separator: " ")
    }
}

extension SearchTerms.Problem {
    /// The problem as one of the search field's (`q`), for the message catalogue to word.
    public var fieldProblem: FieldProblem {
        switch self {
        case .unknownField(let name): .unknownSearchField(name, known: SearchTerms.Field.allCases.map(\.rawValue))
        case .emptyField(let field): .emptySearchField(field.rawValue)
        case .invalidISBN(let text, let problem): .notAnISBN(text, problem)
        }
    }
}

/// Reads terms off the text one at a time.
private struct SearchTermReader {
    private let characters: [Character]
    private let otherFields: SearchTerms.OtherFields
    private var index = 0

    init(_ text: String, otherFields: SearchTerms.OtherFields) {
        characters = Array(text)
        self.otherFields = otherFields
    }

    mutating func next() throws(SearchTerms.Problem) -> SearchTerms.Term? {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        if characters[index] == "\"" { return try term(phrase: quoted(), in: nil) }
        let word = bare()
        guard let colon = word.firstIndex(of: ":"), colon > word.startIndex, word[..<colon].allSatisfy(\.isLetter) else {
            return try term(word: word, in: nil)
        }
        let name = String(word[..<colon])
        let rest = word[word.index(after: colon)...]
        guard let field = SearchTerms.Field(rawValue: name.lowercased()) else {
            // "Dune: Messiah" reads as two words; "foo:bar" and `foo:"bar"` name a field.
            if rest.isEmpty && !atQuote { return try term(word: name, in: nil) }
            guard otherFields == .keptAsWords else { throw .unknownField(name) }
            return SearchTerms.Term(.word(rest.isEmpty ? "\(word)\"\(quoted())\"" : word))
        }
        if !rest.isEmpty { return try term(word: String(rest), in: field) }
        guard atQuote else { throw .emptyField(field) }
        return try term(phrase: quoted(), in: field)
    }

    private var atQuote: Bool { index < characters.count && characters[index] == "\"" }

    /// Characters up to white space or a quote.
    private mutating func bare() -> String {
        let start = index
        while index < characters.count, !characters[index].isWhitespace, characters[index] != "\"" { index += 1 }
        return String(characters[start..<index])
    }

    /// The text between this quote and the next one, or the end.
    private mutating func quoted() -> String {
        index += 1
        let start = index
        while index < characters.count, characters[index] != "\"" { index += 1 }
        let text = String(characters[start..<index])
        if index < characters.count { index += 1 }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func term(word: String, in field: SearchTerms.Field?) throws(SearchTerms.Problem) -> SearchTerms.Term {
        try term(word, in: field, value: .word(word))
    }

    private func term(phrase: String, in field: SearchTerms.Field?) throws(SearchTerms.Problem) -> SearchTerms.Term {
        if phrase.isEmpty, let field { throw .emptyField(field) }
        return try term(phrase, in: field, value: .phrase(phrase))
    }

    /// The term, as an ISBN when it is one (it must be one in `isbn:`).
    private func term(_ text: String, in field: SearchTerms.Field?, value: SearchTerms.Value) throws(SearchTerms.Problem)
        -> SearchTerms.Term
    {
        guard field == nil || field == .isbn else { return SearchTerms.Term(value, in: field) }
        do {
            return SearchTerms.Term(.isbn(try ISBN(parsing: text)), in: field)
        } catch {
            if field == .isbn { throw .invalidISBN(text, error) }
            return SearchTerms.Term(value, in: nil)
        }
    }
}
