/// What every text a person types must be: no control characters and no invisible formatting.
///
/// No title, name, address or password needs NUL, escape or the like, and they do harm where the
/// text goes: a NUL ends a C string (SQLite's text binding and bcrypt both stop there, so a
/// stored name, a stream id or a hashed password would silently lose the rest), and escape
/// sequences drive the terminal that prints a listing. Line breaks and tabs are allowed where
/// text may span lines. Invisible format characters (Unicode's category Cf: zero-width spaces,
/// right-to-left overrides) make two different texts look the same, or one text read backwards
/// in a listing; only the joiners that emoji and some scripts need are kept in names and titles,
/// and addresses take none at all.
public enum FreeText {
    /// The field error for `text`, or nil when it has no control character (line breaks and tabs
    /// count as none when `multiline`) and no invisible format character other than the joiners
    /// (none at all when `identifier`, as in an email address).
    public static func problem(_ text: String, field: String, multiline: Bool = false, identifier: Bool = false) -> FieldError? {
        let allowed: Set<Unicode.Scalar> = multiline ? ["\n", "\r", "\t"] : []
        if text.unicodeScalars.contains(where: { isControl($0) && !allowed.contains($0) }) {
            return FieldError(field, .controlCharacters(allowingLineBreaks: multiline))
        }
        if text.unicodeScalars.contains(where: { isInvisible($0, identifier: identifier) }) {
            return FieldError(field, .invisibleCharacters)
        }
        return nil
    }

    /// Whether `text` is longer than `max` characters allow. A character is what a reader sees as
    /// one, so one letter followed by a hundred thousand combining accents counts as one: it is
    /// also too long once it holds more than four Unicode scalars a character on average, more
    /// than any script or emoji needs (an outside test stored 300 KB as a "one-letter" name).
    public static func isTooLong(_ text: some StringProtocol, max: Int) -> Bool {
        text.unicodeScalars.count > max * 4 || text.count > max
    }

    /// Whether a reader would see nothing of `text`: only spaces and characters drawn as nothing
    /// (Unicode's default-ignorable code points: Hangul fillers, joiners, variation selectors). An
    /// outside test added a book titled U+3164 by U+115F, which passed "is required".
    public static func looksEmpty(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }
    }

    /// Control characters, and the line and paragraph separators that act like them.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Format characters (Cf) other than the zero-width joiner and non-joiner and the tag
    /// characters of flag emoji; every one of them in an identifier.
    static func isInvisible(_ scalar: Unicode.Scalar, identifier: Bool) -> Bool {
        guard scalar.properties.generalCategory == .format else { return false }
        if identifier { return true }
        return !(scalar == "\u{200C}" || scalar == "\u{200D}" || (0xE0020...0xE007F).contains(scalar.value))
    }

    /// Text another system wrote (Open Library's titles, names, publishers), made what a person
    /// may type: its control and invisible format characters dropped (line breaks and tabs kept
    /// when `multiline`, else read as spaces, as other white space is), its ends trimmed, at most
    /// `max` characters, each of at most four Unicode scalars when the text would be too long
    /// (a letter under thousands of accents keeps its first ones); nil when nothing visible is
    /// left. No one at the library typed it, so it is mended rather than refused.
    public static func cleaned(_ text: String, max: Int, multiline: Bool = false) -> String? {
        let allowed: Set<Unicode.Scalar> = multiline ? ["\n", "\t"] : []
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if allowed.contains(scalar) {
                kept.append(scalar)
            } else if scalar.properties.isWhitespace {
                kept.append(" ")  // a line break, a tab or a separator between two words
            } else if !(isControl(scalar) || isInvisible(scalar, identifier: false)) {
                kept.append(scalar)
            }
        }
        var cut = String(String(kept).trimmingSpaces.prefix(max))
        if isTooLong(cut, max: max) { cut = String(cut.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(4))) }.joined()) }
        return looksEmpty(cut) ? nil : cut
    }

    /// `character` as a message may quote it: itself when it can be seen, else its code point.
    public static func visible(_ character: Character) -> String {
        let hidden = character.unicodeScalars.contains {
            isControl($0) || $0.properties.generalCategory == .format || $0.properties.isWhitespace
        }
        guard hidden else { return String(character) }
        return character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
