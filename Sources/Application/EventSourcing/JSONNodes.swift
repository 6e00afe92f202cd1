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
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
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
            parser.index += 1
            var members: [(key: Range<Int>, value: JSONNode)] = []
            parser.skipSpace()
            if parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "}") {
                parser.index += 1
                return .object(members)
            }
            while true {
                parser.skipSpace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else { throw NotFastJSON() }
                let (key, escaped) = try parser.string()
                guard !escaped, parser.bytes[key].allSatisfy({ $0 < 0x80 }),
                    !members.contains(where: { parser.bytes[$0.key].elementsEqual(parser.bytes[key]) })
                else { throw NotFastJSON() }
                try parser.expect(UInt8(ascii: ":"))
                members.append((key, try parser.value()))
                parser.skipSpace()
                guard parser.index < parser.bytes.count else { throw NotFastJSON() }
                let next = parser.bytes[parser.index]
                parser.index += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                guard next == UInt8(ascii: ",") else { throw NotFastJSON() }
            }
        }
    }

    private mutating func array() throws -> JSONNode {
        try nested { parser in
            parser.index += 1
            var elements: [JSONNode] = []
            parser.skipSpace()
            if parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "]") {
                parser.index += 1
                return .array(elements)
            }
            while true {
                elements.append(try parser.value())
                parser.skipSpace()
                guard parser.index < parser.bytes.count else { throw NotFastJSON() }
                let next = parser.bytes[parser.index]
                parser.index += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw NotFastJSON() }
            }
        }
    }

    /// The bytes between the quotes, and whether they hold an escape; control characters refused.
    private mutating func string() throws -> (Range<Int>, Bool) {
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start..<index - 1, escaped)
            }
            guard byte >= 0x20 else { throw NotFastJSON() }
            index += 1
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape()
            }
        }
        throw NotFastJSON()
    }

    /// One escape after its backslash: `\" \\ \/ \b \f \n \r \t`, or `\uXXXX` with a surrogate only in a pair.
    private mutating func escape() throws {
        guard index < bytes.count else { throw NotFastJSON() }
        let letter = bytes[index]
        index += 1
        guard letter == UInt8(ascii: "u") else {
            guard Array("\"\\/bfnrt".utf8).contains(letter) else { throw NotFastJSON() }
            return
        }
        let unit = try hex()
        if (0xDC00..<0xE000).contains(unit) { throw NotFastJSON() }
        if (0xD800..<0xDC00).contains(unit) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw NotFastJSON()
            }
            index += 2
            guard (0xDC00..<0xE000).contains(try hex()) else { throw NotFastJSON() }
        }
    }

    /// Four hexadecimal digits.
    private mutating func hex() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw NotFastJSON() }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw NotFastJSON() }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
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
