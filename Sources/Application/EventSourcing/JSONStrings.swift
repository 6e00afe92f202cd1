/// One JSON string read from UTF-8 bytes: its escapes undone and checked (a surrogate only in a
/// pair), a raw control character refused; and one written as Foundation's `JSONEncoder` writes it.
/// Shared by the payloads' parser (`JSONNodes`), the sealed box (`PersonalSeal`) and the read
/// models' columns of strings (`JSONStringArray`).
public enum JSONStrings {
    /// `value` as a quoted JSON string, byte for byte as `JSONEncoder` writes it: `"`, `\` and the
    /// control characters escaped (`\b \t \n \f \r`, the others `\u00xx`), everything else as its
    /// UTF-8; `/` as `\/` unless `escapingSlashes` is false (the codec's `.withoutEscapingSlashes`).
    public static func write(_ value: String, escapingSlashes: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "/") where escapingSlashes: out += [UInt8(ascii: "\\"), byte]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// The string whose opening quote is at `at`, with `at` moved past its closing quote; nil
    /// when the bytes there are not a valid JSON string.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int) -> String? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        at += 1
        var out: [UInt8] = []
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"): guard unescape(bytes, at: &at, into: &out) else { return nil }
            case 0..<0x20: return nil
            default: out.append(byte)
            }
        }
        return nil
    }

    /// The escape after a backslash: `\" \\ \/ \b \f \n \r \t`, or `\uXXXX` (a pair for a surrogate).
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int, into out: inout [UInt8]) -> Bool {
        guard at < bytes.count else { return false }
        let byte = bytes[at]
        at += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "u"):
            guard var unit = hexUnit(bytes, at: &at) else { return false }
            if (0xD800..<0xDC00).contains(unit) {
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else { return false }
                at += 2
                guard let low = hexUnit(bytes, at: &at), (0xDC00..<0xE000).contains(low) else { return false }
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(unit) else { return false }
            out += Array(String(Character(scalar)).utf8)
        default: return false
        }
        return true
    }

    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int) -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            unit = unit << 4 | digit
            at += 1
        }
        return unit
    }
}
