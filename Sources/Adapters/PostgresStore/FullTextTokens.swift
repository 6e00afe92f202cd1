/// Text cut into the words the catalogue's search matches, exactly as the SQLite store's FTS5
/// index cuts it (`unicode61`, `remove_diacritics 2`): runs of letters, digits and private-use
/// characters, each folded for case and accents codepoint by codepoint ("Élan" is "elan",
/// "Straße" stays "straße", "don't" is "don" and "t"). PostgreSQL's own parsers cut and fold
/// otherwise, and its `unaccent` needs a superuser, so the PostgreSQL catalogue stores these.
enum FullTextTokens {
    /// The tokens of `text`, in order.
    static func of(_ text: String) -> [String] {
        var tokens: [String] = []
        var token = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // FTS5 reads the noncharacters U+FFFE and U+FFFF as U+FFFD.
            let code = scalar.value == 0xFFFE || scalar.value == 0xFFFF ? 0xFFFD : scalar.value
            if tables.diacritics.contains(code) {
                // Dropped from a word; between words, a separator.
                continue
            } else if isTokenCharacter(code) {
                token.append(Unicode.Scalar(fold(code)) ?? scalar)
            } else if !token.isEmpty {
                tokens.append(String(token))
                token = String.UnicodeScalarView()
            }
        }
        if !token.isEmpty { tokens.append(String(token)) }
        return tokens
    }

    private static func isTokenCharacter(_ code: UInt32) -> Bool {
        if code < 0x80 { return (0x30...0x39).contains(code) || (0x41...0x5A).contains(code) || (0x61...0x7A).contains(code) }
        let ranges = tables.separators
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < code { low = middle + 1 } else { high = middle }
        }
        return low == ranges.count || !ranges[low].contains(code)
    }

    private static func fold(_ code: UInt32) -> UInt32 {
        if code < 0x80 { return (0x41...0x5A).contains(code) ? code + 0x20 : code }
        return tables.folds[code] ?? code
    }

    /// `FullTextTokenTables` read once.
    private static let tables = Tables()

    private struct Tables: Sendable {
        let separators: [ClosedRange<UInt32>]
        let diacritics: Set<UInt32>
        let folds: [UInt32: UInt32]

        init() {
            func hex(_ text: Substring) -> UInt32 { UInt32(text, radix: 16)! }
            separators = FullTextTokenTables.separators.split(whereSeparator: \.isWhitespace).map { item in
                let bounds = item.split(separator: "-").map(hex)
                return bounds[0]...bounds[bounds.count - 1]
            }
            diacritics = Set(FullTextTokenTables.diacritics.split(separator: " ").map(hex))
            var folds: [UInt32: UInt32] = [:]
            for item in FullTextTokenTables.folds.split(whereSeparator: \.isWhitespace) {
                if let equals = item.firstIndex(of: "=") {
                    let bounds = item[..<equals].split(separator: "-").map(hex)
                    for code in bounds[0]...bounds[bounds.count - 1] { folds[code] = hex(item[item.index(after: equals)...]) }
                } else {
                    // first*count/stride+delta
                    let parts = item.split(whereSeparator: { "*/+-".contains($0) })
                    let (first, count, stride) = (hex(parts[0]), Int(parts[1])!, UInt32(parts[2])!)
                    let delta = Int64(hex(parts[3])) * (item.contains("-") ? -1 : 1)
                    for index in 0..<UInt32(count) {
                        let code = first + index * stride
                        folds[code] = UInt32(Int64(code) + delta)
                    }
                }
            }
            self.folds = folds
        }
    }
}
