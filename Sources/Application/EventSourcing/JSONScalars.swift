import Foundation

/// A type JSON holds as a string, a number or a boolean, read from a node's bytes.
protocol JSONScalar {
    static func read(_ node: JSONNode, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Self
}

extension String: JSONScalar {
    static func read(_ node: JSONNode, _ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        guard case .string(let range, let escaped) = node else { throw NotFastJSON() }
        return JSONText.string(range, escaped: escaped, bytes)
    }
}

extension Bool: JSONScalar {
    static func read(_ node: JSONNode, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Bool {
        guard case .bool(let value) = node else { throw NotFastJSON() }
        return value
    }
}

extension Double: JSONScalar {
    static func read(_ node: JSONNode, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Double {
        guard case .number(let range) = node, let value = Double(JSONText.string(range, escaped: false, bytes)), value.isFinite
        else { throw NotFastJSON() }
        return value
    }
}

/// Integers of every width: digits only (no fraction, no exponent), within the type's bounds.
protocol JSONInteger: JSONScalar, FixedWidthInteger {}

extension JSONInteger {
    static func read(_ node: JSONNode, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Self {
        guard case .number(let range) = node, !range.isEmpty else { throw NotFastJSON() }
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        var value: Self = 0
        for byte in bytes[(negative ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound] {
            guard (0x30...0x39).contains(byte) else { throw NotFastJSON() }
            let digit = Self(byte - 0x30)
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflow else { throw NotFastJSON() }
            value = next
        }
        return value
    }
}

extension Int: JSONInteger {}
extension Int8: JSONInteger {}
extension Int16: JSONInteger {}
extension Int32: JSONInteger {}
extension Int64: JSONInteger {}
extension UInt: JSONInteger {}
extension UInt8: JSONInteger {}
extension UInt16: JSONInteger {}
extension UInt32: JSONInteger {}
extension UInt64: JSONInteger {}

/// The text of a JSON string's bytes, its escapes undone.
enum JSONText {
    static func string(_ range: Range<Int>, escaped: Bool, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard escaped else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var index = 0
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= slice.count else { return nil }
            return UInt32(String(decoding: UnsafeBufferPointer(rebasing: slice[at..<at + 4]), as: UTF8.self), radix: 16)
        }
        func append(_ scalar: Unicode.Scalar) { out.append(contentsOf: Array(String(Character(scalar)).utf8)) }
        while index < slice.count {
            let byte = slice[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < slice.count else {
                out.append(byte)
                continue
            }
            let escape = slice[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let high = hex(index) else { return String(decoding: slice, as: UTF8.self) }
                index += 4
                if (0xD800..<0xDC00).contains(high), index + 1 < slice.count, slice[index] == UInt8(ascii: "\\"),
                    slice[index + 1] == UInt8(ascii: "u"), let low = hex(index + 2), (0xDC00..<0xE000).contains(low)
                {
                    index += 6
                    append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}")
                } else {
                    append(Unicode.Scalar(high) ?? "\u{FFFD}")
                }
            default: out.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
