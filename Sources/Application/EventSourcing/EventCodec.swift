import Domain
import Foundation

/// The stored form of every event, for every store: its stored type name and a JSON payload
/// (keys sorted, slashes unescaped, dates as `Timestamp` writes them). Derived from the
/// aggregates' own declarations (`StoredEvent`); no name is written here.
public enum EventCodec {
    public struct UnknownEventType: Error, CustomStringConvertible {
        public let type: String
        public var description: String { "the log holds an event of unknown type '\(type)'" }
    }

    /// Every stored type name this code reads, aggregate by aggregate, in declaration order.
    public static let allTypes: [String] = readers.map(\.type)

    public static func encode(_ event: DomainEvent) throws -> (type: String, payload: String) {
        let (type, payload) = event.stored
        return (type, String(decoding: try encoder.encode(payload), as: UTF8.self))
    }

    public static func decode(type: String, payload: String) throws -> DomainEvent {
        guard let read = readerByType[type] else { throw UnknownEventType(type: type) }
        return try read(JSONPayload(data: Data(payload.utf8)))
    }

    typealias Reader = @Sendable (JSONPayload) throws -> DomainEvent

    /// One reader per stored name, from every aggregate's `StoredType` cases.
    private static let readers: [(type: String, read: Reader)] = DomainEvent.aggregates.flatMap { readers(of: $0) }

    /// The first reader of each name: a name declared twice is a bug the codec's tests catch, not a crash at start-up.
    private static let readerByType: [String: Reader] = Dictionary(
        readers.map { ($0.type, $0.read) }, uniquingKeysWith: { first, _ in first })

    private static func readers<A: EventSourced>(of _: A.Type) -> [(type: String, read: Reader)] {
        A.Event.StoredType.allCases.map { type in (type.rawValue, { payload in A.wrap(try A.Event.decode(type, payload)) }) }
    }

    /// One encoder for every event, as for decoding.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        return encoder
    }()

    /// One decoder for every event: making one costs more than decoding a small payload.
    fileprivate static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in try Timestamp.parse(decoder.singleValueContainer().decode(String.self)) }
        return decoder
    }()
}

/// A stored payload's JSON text, read with the codec's decoder.
struct JSONPayload: PayloadDecoder {
    let data: Data

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try EventCodec.decoder.decode(type, from: data)
    }
}

extension DomainEvent {
    /// This event's stored name and payload, whichever aggregate it belongs to.
    var stored: (type: String, payload: any Encodable & Sendable) {
        switch self {
        case .book(let e): e.storedForm
        case .user(let e): e.storedForm
        case .emailClaim(let e): e.storedForm
        case .loan(let e): e.storedForm
        case .patron(let e): e.storedForm
        case .inbox(let e): e.storedForm
        case .bookmark(let e): e.storedForm
        case .isbnClaim(let e): e.storedForm
        case .hold(let e): e.storedForm
        case .cardClaim(let e): e.storedForm
        case .walkIn(let e): e.storedForm
        }
    }
}

extension StoredEvent {
    fileprivate var storedForm: (type: String, payload: any Encodable & Sendable) {
        let (type, payload) = stored
        return (type.rawValue, payload)
    }
}
