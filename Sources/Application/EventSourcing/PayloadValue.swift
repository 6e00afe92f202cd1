import Foundation

/// A stored payload read as plain JSON, for views of the log that show every event alike
/// (history, export) rather than decoding each as its aggregate's type.
public enum PayloadValue: Equatable, Sendable, Codable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    indirect case array([PayloadValue])
    indirect case object([String: PayloadValue])

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? value.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let array = try? value.decode([PayloadValue].self) {
            self = .array(array)
        } else {
            self = .object(try value.decode([String: PayloadValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .string(let string): try value.encode(string)
        case .integer(let integer): try value.encode(integer)
        case .number(let number): try value.encode(number)
        case .bool(let bool): try value.encode(bool)
        case .null: try value.encodeNil()
        case .array(let array): try value.encode(array)
        case .object(let object): try value.encode(object)
        }
    }

    /// A payload's top-level object, or nil when the text is not a JSON object.
    public static func object(parsing text: String) -> [String: PayloadValue]? {
        try? JSONDecoder().decode([String: PayloadValue].self, from: Data(text.utf8))
    }

    /// The object as the codec writes payloads: keys sorted, slashes unescaped.
    public static func text(of object: [String: PayloadValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
