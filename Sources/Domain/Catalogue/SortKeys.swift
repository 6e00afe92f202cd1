import Foundation

/// How the catalogue files its books, as a librarian expects: titles without a leading article
/// ("The Hobbit" under H), authors by surname ("Tolkien, J. R. R."), case and accents aside.
/// Pure functions; the read models store their results and sort on the keys.
public enum SortKeys {
    /// The leading articles a title is filed without, lower case: English, then French. One ending
    /// in an apostrophe is elided and joins the next word ("L'Étranger", "L’Étranger"); the others
    /// count only as a whole word followed by more title ("Lesbos" and a title that is just "Les"
    /// keep theirs). Books are not tagged with a language, so every title drops both languages'
    /// articles: "La La Land" files as "La Land", "A Clockwork Orange" as "Clockwork Orange".
    public static let leadingArticles = ["the", "a", "an", "le", "la", "les", "l'", "un", "une"]

    /// Particles before a surname. Capitalised, one belongs to the surname ("Ursula K. Le Guin"
    /// files as "Le Guin, Ursula K."); in lower case it stays with the given names ("Ludwig van
    /// Beethoven" as "Beethoven, Ludwig van"), as library catalogues file them.
    public static let surnameParticles: Set<String> = [
        "van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "des", "la", "le", "dos", "das", "ter", "ten", "zu",
    ]

    /// Generational suffixes kept after the given names ("King, Martin Luther, Jr.").
    public static let nameSuffixes: Set<String> = ["jr", "jr.", "sr", "sr.", "ii", "iii", "iv"]

    /// The title as it is filed: without a leading article and leading punctuation.
    public static func titleSort(_ title: String) -> String {
        let text = trimmedLeadingPunctuation(title)
        // The title's first one, two and three characters, lower case, a typographic apostrophe read as "'".
        var heads: [Int: String] = [:]
        for article in leadingArticles {
            let head =
                heads[article.count]
                ?? {
                    let head = apostrophesStraightened(text.prefix(article.count).lowercased())
                    heads[article.count] = head
                    return head
                }()
            guard head == article else { continue }
            let rest = text.dropFirst(article.count)
            guard article.hasSuffix("'") || rest.first?.isWhitespace == true else { continue }
            let filed = trimmedLeadingPunctuation(String(rest))
            if !filed.isEmpty { return filed }
        }
        return text
    }

    /// One author's name as it is filed: "Surname, Given names[, Suffix]". A name written with a
    /// comma already ("Tolkien, J. R. R.") and a single word ("Plato") are kept as they are.
    public static func authorSort(_ name: String) -> String {
        var words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        var suffix: String?
        if words.count > 1, let last = words.last, nameSuffixes.contains(last.lowercased()) {
            suffix = last
            words.removeLast()
            if let comma = words.indices.last, words[comma].hasSuffix(",") { words[comma].removeLast() }
        }
        let joined = words.joined(separator: " ")
        let filed: String
        if joined.utf8.contains(UInt8(ascii: ",")) || words.count < 2 {
            filed = joined
        } else {
            filed = inverted(words)
        }
        return [filed, suffix].compactMap { $0 }.joined(separator: ", ")
    }

    /// Every author filed, first author first: a book sorts under its first author, then the others.
    public static func authorsSort(_ names: [String]) -> String {
        names.map(authorSort).joined(separator: "; ")
    }

    /// The key a filed text sorts by: case, accents, width and letters like "æ" folded, spaces
    /// collapsed, so "Émile" files with "Emile" and "the" with "The". Compared as bytes.
    public static func collationKey(_ text: String) -> String {
        if ASCIIText.isASCII(text) { return asciiCollationKey(text) }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var key = ""
        key.reserveCapacity(folded.utf8.count)
        for character in folded {
            if character.isWhitespace {
                if !key.isEmpty && key.last != " " { key.append(" ") }
            } else if let plain = letterFolds[character] {
                key += plain
            } else {
                key.append(character)
            }
        }
        return key.last == " " ? String(key.dropLast()) : key
    }

    /// `collationKey` of a text in ASCII, byte by byte: what Foundation's folding does to ASCII is
    /// lower-casing A–Z, and Unicode's white space in ASCII is the space and U+0009–U+000D. Most
    /// titles and names are ASCII, and the folding costs a third of an added book's projection.
    private static func asciiCollationKey(_ text: String) -> String {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if ASCIIText.isWhitespace(byte) {
                if !key.isEmpty && key.last != 0x20 { key.append(0x20) }
            } else {
                key.append(ASCIIText.folded(byte))
            }
        }
        if key.last == 0x20 { key.removeLast() }
        return String(decoding: key, as: UTF8.self)
    }

    /// The text with every U+2019 (’) made an apostrophe ('), scalar by scalar.
    private static func apostrophesStraightened(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{2019}") else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.map { $0 == "\u{2019}" ? "'" : $0 })
        return String(scalars)
    }

    /// "J. R. R. Tolkien" → "Tolkien, J. R. R."; a capitalised particle stays with the surname
    /// ("Le Guin, Ursula K."), a lower-case one follows the given names ("Beethoven, Ludwig van").
    private static func inverted(_ words: [String]) -> String {
        func isParticle(_ word: String) -> Bool { surnameParticles.contains(word.lowercased()) }
        var surname = words.count - 1
        while surname > 1, isParticle(words[surname - 1]), words[surname - 1].first?.isUppercase == true { surname -= 1 }
        return words[surname...].joined(separator: " ") + ", " + words[..<surname].joined(separator: " ")
    }

    private static func trimmedLeadingPunctuation(_ text: String) -> String {
        let trimmed = text.drop { !($0.isLetter || $0.isNumber) }
        return trimmed.isEmpty ? text.trimmingWhitespace() : String(trimmed).trimmingWhitespace()
    }

    /// Latin letters that Unicode does not decompose into a base letter and an accent.
    private static let letterFolds: [Character: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ß": "ss",
    ]
}
