/// A piece of a member's personal data as an event holds it: known, or erased because the
/// member closed their account and the key that sealed it was deleted (crypto-shredding).
/// Stored exactly as the value itself (so events written before sealing read as they were
/// written); an erased value is JSON `null`.
public enum Personal<Value: Equatable & Sendable>: Equatable, Sendable {
    case known(Value)
    case erased

    /// The value, or nil when it was erased.
    public var known: Value? {
        if case .known(let value) = self { value } else { nil }
    }

    /// Whether the value was erased.
    public var isErased: Bool { self == .erased }
}

extension Personal: Codable where Value: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .erased : .known(try container.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .known(let value): try container.encode(value)
        case .erased: try container.encodeNil()
        }
    }
}
