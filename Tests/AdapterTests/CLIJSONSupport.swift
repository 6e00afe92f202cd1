import Foundation
import Testing

/// A JSON document as a value, so two answers compare by meaning (types included: `"false"` is
/// not `false`), not by spelling.
indirect enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Parses `text`; a test fails on text that is not JSON.
    static func parse(_ text: String, _ what: String) throws -> JSONValue {
        do { return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) } catch {
            Issue.record("\(what) is not JSON: \(text.prefix(500))")
            throw error
        }
    }

    /// The kind of value, for keys whose values may differ.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "\(n)"
        case .string(let s): "\"\(s)\""
        case .array(let a): "[\(a.map(\.description).joined(separator: ", "))]"
        case .object(let o): "{\(o.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}"
        }
    }

    /// Where `self` and `other` differ. Keys in `volatile` (ids, times of two separate writes)
    /// must be present on both sides with values of the same kind; everything else must be equal.
    func differences(from other: JSONValue, volatile: Set<String> = [], at path: String = "$") -> [String] {
        switch (self, other) {
        case (.object(let a), .object(let b)):
            var found: [String] = []
            for key in Set(a.keys).symmetricDifference(b.keys).sorted() {
                found.append("\(path).\(key): only in the \(a[key] == nil ? "API" : "CLI")'s answer")
            }
            for key in Set(a.keys).intersection(b.keys).sorted() {
                let (x, y) = (a[key]!, b[key]!)
                if volatile.contains(key) {
                    if x.kind != y.kind { found.append("\(path).\(key): \(x.kind) in the CLI's answer, \(y.kind) in the API's") }
                } else {
                    found += x.differences(from: y, volatile: volatile, at: "\(path).\(key)")
                }
            }
            return found
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return ["\(path): \(a.count) items in the CLI's answer, \(b.count) in the API's"] }
            return zip(a, b).enumerated().flatMap { i, pair in pair.0.differences(from: pair.1, volatile: volatile, at: "\(path)[\(i)]") }
        default:
            return self == other ? [] : ["\(path): \(self) in the CLI's answer, \(other) in the API's"]
        }
    }
}
