import Foundation

/// A JSON document parsed in one pass over its UTF-8 bytes, strings and numbers left as ranges of
/// those bytes until a value is asked for (`NodeDecoder`). Strict RFC 8259, and every key ASCII,
/// unescaped and given once (as the codec writes them; Foundation compares keys as Swift strings,
/// so two spellings of one text are one key to it): anything else is refused, and the caller
/// reads the text with Foundation's `JSONDecoder` instead.
enum JSONNode {
    case object([(key: Range<Int>, value: JSONNode)])
    case array([JSONNode])
    case string(Range<Int>, escaped: Bool)
    case number(Range<Int>)
    case bool(Bool)
    case null
}

/// What the fast path does not read; the caller falls back to Foundation's decoder.
struct NotFastJSON: Error {}

/// The recursive-descent parser over a buffer of UTF-8 bytes.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The whole document: one value, whitespace around it, nothing after.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONNode {
        var parser = JSONParser(bytes)
        let node = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw NotFastJSON() }
        return node
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw NotFastJSON() }
        index += 1
    }

    private mutating func value() throws -> JSONNode {
        skipSpace()
        guard index < bytes.count else { throw NotFastJSON() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""):
            let (range, escaped) = try string()
            return .string(range, escaped: escaped)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString, _ node: JSONNode) throws -> JSONNode {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[index..<index + count])
        else { throw NotFastJSON() }
        index += count
        return node
    }

    private mutating func nested<T>(_ body: (inout JSONParser) throws -> T) throws -> T {
        depth += 1
        guard depth <= 64 else { throw NotFastJSON() }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws -> JSONNode {
        try nested { parser in
            var members: [(key: Range<Int>, value: JSONNode)] = []
            if parser.opens(closedBy: UInt8(ascii: "}")) { return .object(members) }
            repeat {
                parser.skipSpace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else { throw NotFastJSON() }
                let (key, escaped) = try parser.string()
                guard !escaped, parser.bytes[key].allSatisfy({ $0 < 0x80 }),
                    !members.contains(where: { parser.bytes[$0.key].elementsEqual(parser.bytes[key]) })
                else { throw NotFastJSON() }
                try parser.expect(UInt8(ascii: ":"))
                members.append((key, try parser.value()))
            } while try !parser.closes(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    private mutating func array() throws -> JSONNode {
        try nested { parser in
            var elements: [JSONNode] = []
            if parser.opens(closedBy: UInt8(ascii: "]")) { return .array(elements) }
            repeat { elements.append(try parser.value()) } while try !parser.closes(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    /// Past a container's opening byte: true when it closes at once (`{}`, `[]`).
    private mutating func opens(closedBy closing: UInt8) -> Bool {
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        return true
    }

    /// After a member or an element: true at the container's closing byte, false at a comma.
    private mutating func closes(_ closing: UInt8) throws -> Bool {
        skipSpace()
        guard index < bytes.count else { throw NotFastJSON() }
        let next = bytes[index]
        index += 1
        if next == closing { return true }
        guard next == UInt8(ascii: ",") else { throw NotFastJSON() }
        return false
    }

    /// The bytes between the quotes, and whether they hold an escape; control characters refused,
    /// and a string with an escape checked through `JSONStrings` (which the decoder reads it with).
    private mutating func string() throws -> (Range<Int>, Bool) {
        let quote = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (quote + 1..<index - 1, false)
            }
            guard byte >= 0x20 else { throw NotFastJSON() }
            if byte == UInt8(ascii: "\\") {
                index = quote
                guard JSONStrings.read(bytes, at: &index) != nil else { throw NotFastJSON() }
                return (quote + 1..<index - 1, true)
            }
            index += 1
        }
        throw NotFastJSON()
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws -> Range<Int> {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) { parser.index += 1 }
            return parser.index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integral = index
        guard digits(&self) > 0, bytes[integral] != UInt8(ascii: "0") || index == integral + 1 else { throw NotFastJSON() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw NotFastJSON() }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw NotFastJSON() }
        }
        return start..<index
    }
}
