import Domain
import Foundation

/// `Decodable` values read from a parsed `JSONNode`, as the codec's `JSONDecoder` reads them
/// (dates as `Timestamp` writes them), without building a dictionary or a string per key.
/// Anything it does not read exactly so throws `NotFastJSON`, and the caller falls back to
/// Foundation's decoder (`EventCodec.decodeJSON`), so both always agree on what a payload holds.
struct NodeDecoder: Decoder {
    let node: JSONNode
    let bytes: UnsafeBufferPointer<UInt8>
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A value of type `T` from JSON text, or `NotFastJSON`.
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        var text = text
        return try text.withUTF8 { bytes in
            try NodeDecoder(node: JSONParser.parse(bytes), bytes: bytes).value(T.self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node else { throw NotFastJSON() }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(members: members, bytes: bytes))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = node else { throw NotFastJSON() }
        return NodeUnkeyedContainer(elements: elements, bytes: bytes)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The node as `T`: the types JSON holds read from their bytes, dates and UUIDs from their
    /// text, anything else by its own `init(from:)`.
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = type as? any JSONScalar.Type { return try scalar.read(node, bytes) as! T }
        if type == Date.self { return try Timestamp.parse(String.read(node, bytes)) as! T }
        if type == UUID.self {
            guard let uuid = UUIDText.parse(try String.read(node, bytes)) else { throw NotFastJSON() }
            return uuid as! T
        }
        // Types Foundation reads its own way, and numbers not read here (`Float`, `Int128`…), whose
        // `init(from:)` would ask this decoder for themselves again.
        if type == URL.self || type == Data.self || type == Decimal.self || type is any BinaryFloatingPoint.Type
            || type is any FixedWidthInteger.Type
        {
            throw NotFastJSON()
        }
        return try T(from: self)
    }
}

extension NodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { if case .null = node { true } else { false } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: Range<Int>, value: JSONNode)]
    let bytes: UnsafeBufferPointer<UInt8>
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { members.compactMap { Key(stringValue: JSONText.string($0.key, escaped: false, bytes)) } }

    /// The member's value. The document's keys are ASCII and unique (`JSONParser`), so an ASCII
    /// name is found byte for byte; any other is compared as Swift compares strings, as Foundation
    /// does (a KELVIN SIGN is a K).
    private func node(_ key: Key) -> JSONNode? {
        var name = key.stringValue
        return name.withUTF8 { wanted in
            if wanted.allSatisfy({ $0 < 0x80 }) { return members.first { wanted.elementsEqual(bytes[$0.key]) }?.value }
            return members.first { JSONText.string($0.key, escaped: false, bytes) == key.stringValue }?.value
        }
    }

    private func decoder(_ key: Key) throws -> NodeDecoder {
        guard let node = node(key) else { throw NotFastJSON() }
        return NodeDecoder(node: node, bytes: bytes)
    }

    func contains(_ key: Key) -> Bool { node(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try decoder(key).decodeNil() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).value(type) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { throw NotFastJSON() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw NotFastJSON() }
}

struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONNode]
    let bytes: UnsafeBufferPointer<UInt8>
    var codingPath: [any CodingKey] { [] }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }
    private(set) var currentIndex = 0

    init(elements: [JSONNode], bytes: UnsafeBufferPointer<UInt8>) {
        self.elements = elements
        self.bytes = bytes
    }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else { throw NotFastJSON() }
        defer { currentIndex += 1 }
        return NodeDecoder(node: elements[currentIndex], bytes: bytes)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw NotFastJSON() }
        if case .null = elements[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().value(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { throw NotFastJSON() }
}
