/// A YAML value of the subset the contract is written in: block mappings and sequences, flow
/// `{…}` and `[…]`, plain and quoted scalars, `|` and `>` block scalars, comments. The server reads
/// its own contract with it (`ContractShapes`), so what an error says about a parameter or a field
/// comes from the document the code was generated from; anchors, tags and multi-document streams
/// are refused, not guessed at.
indirect enum YAMLValue: Equatable, Sendable {
    case scalar(String)
    case list([YAMLValue])
    case map([Entry])

    /// One key of a mapping, in the document's order.
    struct Entry: Equatable, Sendable {
        let key: String
        let value: YAMLValue
    }

    /// The value at `key` of a mapping.
    subscript(key: String) -> YAMLValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var string: String? { if case .scalar(let text) = self { text } else { nil } }
    var items: [YAMLValue] { if case .list(let items) = self { items } else { [] } }
    var entries: [Entry] { if case .map(let entries) = self { entries } else { [] } }

    /// A document in the subset, or the line it could not read.
    static func parse(_ text: String) throws(YAMLSubsetError) -> YAMLValue {
        var parser = BlockParser(text)
        return try parser.document()
    }
}

/// A line of the document the reader does not understand.
struct YAMLSubsetError: Error, Equatable, CustomStringConvertible {
    let line: Int
    let reason: String
    var description: String { "line \(line): \(reason)" }
}

/// Reads the indentation structure; values on one line go to `FlowParser`.
private struct BlockParser {
    private struct Line {
        let number: Int
        var indent: Int
        var text: Substring
    }
    private var lines: [Line]
    private var index = 0

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { number, raw in
            let raw = raw.last == "\r" ? raw.dropLast() : raw
            let text = raw.drop { $0 == " " }
            return Line(number: number + 1, indent: raw.count - text.count, text: text)
        }
    }

    mutating func document() throws(YAMLSubsetError) -> YAMLValue {
        skipBlank()
        guard index < lines.count else { return .map([]) }
        let value = try block(indent: lines[index].indent)
        skipBlank()
        if index < lines.count { throw failure("unexpected indentation") }
        return value
    }

    private func failure(_ reason: String) -> YAMLSubsetError {
        YAMLSubsetError(line: index < lines.count ? lines[index].number : lines.count, reason: reason)
    }

    private static func isBlank(_ text: Substring) -> Bool { text.isEmpty || text.first == "#" }
    private static func isDash(_ text: Substring) -> Bool { text == "-" || text.hasPrefix("- ") }

    private mutating func skipBlank() {
        while index < lines.count, Self.isBlank(lines[index].text) { index += 1 }
    }

    private mutating func block(indent: Int) throws(YAMLSubsetError) -> YAMLValue {
        skipBlank()
        guard index < lines.count, lines[index].indent >= indent else { return .scalar("") }
        for marker in ["&", "*", "!", "---", "%"] where lines[index].text.hasPrefix(marker) {
            throw failure("anchors, tags and directives are not read")
        }
        return Self.isDash(lines[index].text) ? try sequence(indent: lines[index].indent) : try mapping(indent: lines[index].indent)
    }

    private mutating func sequence(indent: Int) throws(YAMLSubsetError) -> YAMLValue {
        var items: [YAMLValue] = []
        while true {
            skipBlank()
            guard index < lines.count, lines[index].indent == indent, Self.isDash(lines[index].text) else { break }
            let rest = lines[index].text.dropFirst().drop { $0 == " " }
            if Self.isBlank(rest) {
                index += 1
                items.append(try block(indent: indent + 1))
            } else if Self.startsMapping(rest) {
                // "- key: value" opens a mapping whose keys line up with "key".
                lines[index].indent += lines[index].text.count - rest.count
                lines[index].text = rest
                items.append(try mapping(indent: lines[index].indent))
            } else {
                items.append(try inline(rest))
            }
        }
        return .list(items)
    }

    private mutating func mapping(indent: Int) throws(YAMLSubsetError) -> YAMLValue {
        var entries: [YAMLValue.Entry] = []
        while true {
            skipBlank()
            // A dash at the mapping's own indentation is the parent sequence's next item.
            guard index < lines.count, lines[index].indent >= indent else { break }
            if lines[index].indent == indent, Self.isDash(lines[index].text) { break }
            guard lines[index].indent == indent else { throw failure("unexpected indentation") }
            guard let (key, rest) = Self.splitKey(lines[index].text) else { throw failure("expected 'key: value'") }
            if entries.contains(where: { $0.key == key }) { throw failure("'\(key)' appears twice in one mapping") }
            if Self.isBlank(rest) {
                index += 1
                skipBlank()
                let nested =
                    index < lines.count
                    && (lines[index].indent > indent || (lines[index].indent == indent && Self.isDash(lines[index].text)))
                entries.append(.init(key: key, value: nested ? try block(indent: lines[index].indent) : .scalar("")))
            } else if let style = rest.first, style == "|" || style == ">" {
                index += 1
                entries.append(.init(key: key, value: .scalar(blockScalar(parent: indent, folded: style == ">"))))
            } else {
                entries.append(.init(key: key, value: try inline(rest)))
            }
        }
        return .map(entries)
    }

    /// A value written on the line at `index` (a flow collection may continue on the next lines).
    private mutating func inline(_ start: Substring) throws(YAMLSubsetError) -> YAMLValue {
        var text = String(start)
        index += 1
        if text.first == "{" || text.first == "[" {
            while !FlowParser.isBalanced(text), index < lines.count {
                text += " " + lines[index].text
                index += 1
            }
        }
        do { return try FlowParser.value(text) } catch { throw YAMLSubsetError(line: lines[index - 1].number, reason: error.reason) }
    }

    /// The lines of a `|` or `>` scalar: every line indented past its key, or blank.
    private mutating func blockScalar(parent: Int, folded: Bool) -> String {
        var kept: [Substring] = []
        while index < lines.count, lines[index].text.isEmpty || lines[index].indent > parent {
            kept.append(lines[index].text)
            index += 1
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        return kept.joined(separator: folded ? " " : "\n")
    }

    /// "- name: x" holds a mapping; "- {…}", "- [a]", "- 'text'" and "- text" hold a value.
    private static func startsMapping(_ text: Substring) -> Bool {
        guard let first = text.first, !"{['\"".contains(first) else { return false }
        return splitKey(text) != nil
    }

    /// The key and the rest of a `key: value` line; the key may be quoted.
    private static func splitKey(_ text: Substring) -> (String, Substring)? {
        if let quote = text.first, quote == "'" || quote == "\"" {
            guard let close = text.dropFirst().firstIndex(of: quote), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            let rest = text[text.index(close, offsetBy: 2)...]
            return (String(text[text.index(after: text.startIndex)..<close]), rest.drop { $0 == " " })
        }
        var position = text.startIndex
        while let colon = text[position...].firstIndex(of: ":") {
            let after = text.index(after: colon)
            if after == text.endIndex || text[after] == " " {
                return (String(text[..<colon]), text[after...].drop { $0 == " " })
            }
            position = after
        }
        return nil
    }
}
