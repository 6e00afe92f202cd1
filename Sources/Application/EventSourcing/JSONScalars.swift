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

/// The text of a JSON string's bytes (between its quotes), its escapes undone.
enum JSONText {
    static func string(_ range: Range<Int>, escaped: Bool, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var at = range.lowerBound - 1
        // The parser checked it with the same reader: it cannot fail here.
        return JSONStrings.read(bytes, at: &at) ?? ""
    }
}
