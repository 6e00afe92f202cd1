/// Finds a key that appears twice in one JSON object. Foundation's decoder silently keeps one of
/// them, so `{"role":"member","role":"librarian"}` would mean whatever a reader of the log or a
/// proxy in front of us did not expect; a request is refused instead, by every adapter that reads
/// JSON bodies (the API's, the Prolific apps').
///
/// One pass, no recursion (a 100,000-deep body cannot overflow the stack); text that is not JSON
/// is left for the decoder to report.
public enum DuplicateKeys {
    private enum Frame {
        case object
        case array
    }

    /// The first repeated key, or nil when every object's keys are distinct. Each open object's
    /// keys are changed in place: a set copied for every key made a body of 40,000 keys cost
    /// seconds before anyone logged in (found by an outside walk).
    public static func first<Bytes: RandomAccessCollection>(in bytes: Bytes) -> String?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var frames: [Frame] = []
        // One entry per open object, innermost last.
        var keys: [Set<String>] = []
        var expectingKey: [Bool] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                frames.append(.object)
                keys.append([])
                expectingKey.append(true)
            case UInt8(ascii: "["): frames.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if case .object? = frames.popLast() {
                    keys.removeLast()
                    expectingKey.removeLast()
                }
            case UInt8(ascii: ","):
                if case .object? = frames.last { expectingKey[expectingKey.count - 1] = true }
            case UInt8(ascii: "\""):
                guard let end = closingQuote(bytes, after: index) else { return nil }
                if case .object? = frames.last, expectingKey[expectingKey.count - 1] {
                    let key = decode(bytes[(index + 1)..<end])
                    guard keys[keys.count - 1].insert(key).inserted else { return key }
                    expectingKey[expectingKey.count - 1] = false
                }
                index = end
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Whether a comma stands where JSON has none: before a closing `}` or `]`, after an opening
    /// one, or after another comma. Foundation's decoder takes `{"a":1,}` as `{"a":1}` (found by an
    /// outside walk), which JSON is not; refused alike by the adapters that refuse repeated keys.
    /// One pass outside strings; text that is not JSON otherwise is left for the decoder.
    public static func strayComma<Bytes: RandomAccessCollection>(in bytes: Bytes) -> Bool
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var previous: UInt8 = 0  // the last byte outside strings and white space
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
            case UInt8(ascii: "\""):
                guard let end = closingQuote(bytes, after: index) else { return false }
                index = end
                previous = byte
            case UInt8(ascii: ","):
                if previous == UInt8(ascii: ",") || previous == UInt8(ascii: "{") || previous == UInt8(ascii: "[") { return true }
                previous = byte
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if previous == UInt8(ascii: ",") { return true }
                previous = byte
            default: previous = byte
            }
            index += 1
        }
        return false
    }

    /// The index of the quote that ends the string opened at `start`.
    private static func closingQuote<Bytes: RandomAccessCollection>(_ bytes: Bytes, after start: Int) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = start + 1
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    /// A string's content with its escapes resolved, as a decoder would read the key.
    private static func decode<Bytes: Collection>(_ raw: Bytes) -> String where Bytes.Element == UInt8 {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var units: [UInt16] = []
        var bytes = Array(raw)[...]
        func flushUnits() {
            scalars.append(contentsOf: String(decoding: units, as: UTF16.self).unicodeScalars)
            units.removeAll()
        }
        var plain: [UInt8] = []
        func flushPlain() {
            scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
            plain.removeAll()
        }
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "\\"), let escape = bytes.popFirst() else {
                flushUnits()
                plain.append(byte)
                continue
            }
            flushPlain()
            if escape == UInt8(ascii: "u"), bytes.count >= 4, let unit = UInt16(String(decoding: bytes.prefix(4), as: UTF8.self), radix: 16)
            {
                units.append(unit)
                bytes = bytes.dropFirst(4)
                continue
            }
            flushUnits()
            let map: [UInt8: Unicode.Scalar] = [
                UInt8(ascii: "n"): "\n", UInt8(ascii: "t"): "\t", UInt8(ascii: "r"): "\r", UInt8(ascii: "b"): "\u{8}",
                UInt8(ascii: "f"): "\u{C}",
            ]
            scalars.append(map[escape] ?? Unicode.Scalar(escape))
        }
        flushUnits()
        flushPlain()
        return String(scalars)
    }
}
