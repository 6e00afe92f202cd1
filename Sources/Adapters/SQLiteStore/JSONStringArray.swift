import Application
import Foundation

/// The read models' JSON columns of strings (a book's authors and categories), written and read
/// without Foundation's `JSONEncoder`/`JSONDecoder`, which cost a fifth of a catalogue page and of
/// an added book's projection. The text is byte for byte what `JSONEncoder` writes (`"\/"`,
/// `\u001f`), so a column written before this change and one a rebuild writes are equal.
enum JSONStringArray {
    /// `["a","b\/c"]`, as `JSONEncoder().encode(values)` writes it.
    static func encode(_ values: [String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONStrings.write(value, escapingSlashes: true, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The strings of a JSON array of strings; any JSON the fast reader does not take (spaces,
    /// another type) goes through `JSONDecoder`, which throws on text that is not such an array.
    static func decode(_ text: String) throws -> [String] {
        if let values = fastDecode(text) { return values }
        return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// Reads the compact form `encode` writes (and any escapes JSON allows); nil for anything else.
    static func fastDecode(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var reader = Reader(bytes: bytes)
            return reader.array()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func array() -> [String]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var values: [String] = []
            if take(UInt8(ascii: "]")) { return at == bytes.count ? values : nil }
            repeat {
                guard let value = string() else { return nil }
                values.append(value)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) && at == bytes.count ? values : nil
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        private mutating func string() -> String? { JSONStrings.read(bytes, at: &at) }
    }
}
