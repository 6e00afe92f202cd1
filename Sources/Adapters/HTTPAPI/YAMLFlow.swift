/// Values written on one line: flow mappings and sequences, quoted and plain scalars.
struct FlowParser {
    struct Failure: Error { let reason: String }

    private let characters: [Character]
    private var position = 0

    private init(_ text: String) { characters = Array(text) }

    static func value(_ text: String) throws(Failure) -> YAMLValue {
        var parser = FlowParser(text)
        let value = try parser.value(topLevel: true)
        parser.skipSpaces()
        guard parser.position == parser.characters.count || parser.characters[parser.position] == "#" else {
            throw Failure(reason: "unexpected text after a value")
        }
        return value
    }

    /// True when every bracket opened outside quotes is closed.
    static func isBalanced(_ text: String) -> Bool {
        var depth = 0
        var quote: Character?
        var escaped = false
        for character in text {
            if let open = quote {
                if escaped {
                    escaped = false
                } else if character == "\\", open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
            }
        }
        return depth <= 0
    }

    private var current: Character? { position < characters.count ? characters[position] : nil }

    private mutating func skipSpaces() {
        while current == " " { position += 1 }
    }

    private mutating func value(topLevel: Bool = false) throws(Failure) -> YAMLValue {
        skipSpaces()
        switch current {
        case "&", "*", "!": throw Failure(reason: "anchors, aliases and tags are not read")
        case "{": return try mapping()
        case "[": return try sequence()
        case "'", "\"": return .scalar(try quoted())
        default: return .scalar(plain(stops: topLevel ? [] : [",", "]", "}"]))
        }
    }

    private mutating func mapping() throws(Failure) -> YAMLValue {
        position += 1
        var entries: [YAMLValue.Entry] = []
        while true {
            skipSpaces()
            if current == "}" { break }
            let key = current == "'" || current == "\"" ? try quoted() : plain(stops: [":", ",", "}"])
            skipSpaces()
            var value = YAMLValue.scalar("")
            if current == ":" {
                position += 1
                value = try self.value()
            }
            entries.append(.init(key: key, value: value))
            skipSpaces()
            if current == "," { position += 1 } else if current != "}" { throw Failure(reason: "expected ',' or '}'") }
        }
        position += 1
        return .map(entries)
    }

    private mutating func sequence() throws(Failure) -> YAMLValue {
        position += 1
        var items: [YAMLValue] = []
        while true {
            skipSpaces()
            if current == "]" { break }
            items.append(try value())
            skipSpaces()
            if current == "," { position += 1 } else if current != "]" { throw Failure(reason: "expected ',' or ']'") }
        }
        position += 1
        return .list(items)
    }

    /// `'it''s'` or `"a \"b\""`.
    private mutating func quoted() throws(Failure) -> String {
        let quote = characters[position]
        position += 1
        var text = ""
        while let character = current {
            position += 1
            if character == quote {
                guard quote == "'", current == "'" else { return text }
                position += 1
            } else if character == "\\", quote == "\"", let escaped = current {
                position += 1
                text.append(["n": "\n", "t": "\t"][escaped] ?? escaped)
                continue
            }
            text.append(character)
        }
        throw Failure(reason: "a quoted value is not closed")
    }

    /// Unquoted text up to a stop character or a comment.
    private mutating func plain(stops: Set<Character>) -> String {
        let start = position
        while let character = current, !stops.contains(character) {
            if character == "#", position > start, characters[position - 1] == " " { break }
            position += 1
        }
        var text = characters[start..<position]
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
