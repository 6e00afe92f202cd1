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

    /// An event encoded for the store, before its personal data is sealed.
    public struct Encoded: Sendable, Equatable {
        public let type: String
        /// The payload in clear.
        public let payload: String
        /// Whose key seals which fields (`sealed`), when it holds personal data.
        public let personal: PersonalData?
        /// The member whose key the store deletes in the same transaction (their account closed).
        public let erases: UserID?
    }

    /// Every stored type name this code reads, aggregate by aggregate, in declaration order.
    public static let allTypes: [String] = readers.map(\.type)

    /// An event's stored name and payload in clear (personal data not sealed: see `encoded`).
    public static func encode(_ event: DomainEvent) throws -> (type: String, payload: String) {
        let (type, payload) = event.stored
        return (type, String(decoding: try encoder.encode(payload), as: UTF8.self))
    }

    /// An event's stored name and payload in clear, and what the store does with it: seal its
    /// personal data with its member's key (`sealed`), delete the key of the member it erases.
    public static func encoded(_ event: DomainEvent) throws -> Encoded {
        let (type, payload) = try encode(event)
        let declared = event.declared
        return Encoded(type: type, payload: payload, personal: declared.personalData, erases: declared.erases)
    }

    /// The payload as the log stores it: its personal fields sealed by `cipher` with their member's key.
    public static func sealed(_ encoded: Encoded, key: PersonalKey, cipher: any PersonalCipher) throws -> String {
        guard let personal = encoded.personal else { return encoded.payload }
        return try PersonalSeal.seal(encoded.payload, type: encoded.type, personal, key: key, cipher: cipher)
    }

    /// The event in a stored payload: personal data sealed is opened by `cipher` with its member's
    /// key (`keys`), and reads as erased when the key is gone; personal data in clear (written
    /// before sealing) reads as erased too once its member's account is closed.
    public static func decode(
        type: String, payload: String, cipher: any PersonalCipher, keys: (UserID) throws -> SubjectKey
    ) throws -> DomainEvent {
        try read(type: type, payload: payload, keys: keys, cipher: cipher).event
    }

    /// The event in a stored payload, read without any key: sealed personal data reads as erased.
    public static func decode(type: String, payload: String) throws -> DomainEvent {
        try read(type: type, payload: payload, keys: { _ in .none }, cipher: nil).event
    }

    /// The payload as a person may read it: personal data opened, `null` where it is erased.
    public static func readable(
        type: String, payload: String, cipher: any PersonalCipher, keys: (UserID) throws -> SubjectKey
    ) throws -> String {
        try read(type: type, payload: payload, keys: keys, cipher: cipher).payload
    }

    /// The payload as an export carries it: sealed personal data stays sealed, and personal data in
    /// clear of a member since erased is `null` (`redacted`: the stored text is no longer there).
    public static func exported(type: String, payload: String, keys: (UserID) throws -> SubjectKey) throws
        -> (payload: String, redacted: Bool)
    {
        if try PersonalSeal.box(of: payload) != nil { return (payload, false) }
        guard let personal = try decode(type: type, payload: payload).declared.personalData,
            try keys(personal.subject) == .erased
        else { return (payload, false) }
        return (try PersonalSeal.erase(payload, personal.fields), true)
    }

    /// Whether a stored payload holds personal data in clear, and whose (written before sealing).
    public static func clearPersonalData(type: String, payload: String) throws -> PersonalData? {
        if try PersonalSeal.box(of: payload) != nil { return nil }
        return try decode(type: type, payload: payload).declared.personalData
    }

    /// Reads a payload: opened (or erased) text and the event in it.
    private static func read(
        type: String, payload: String, keys: (UserID) throws -> SubjectKey, cipher: (any PersonalCipher)?
    ) throws -> (event: DomainEvent, payload: String) {
        guard let read = readerByType[type] else { throw UnknownEventType(type: type) }
        let (opened, sealed) = try PersonalSeal.open(payload, type: type, key: keys, cipher: cipher)
        let event = try read(JSONPayload(text: opened))
        guard !sealed, let personal = event.declared.personalData, try keys(personal.subject) == .erased else {
            return (event, opened)
        }
        let redacted = try PersonalSeal.erase(payload, personal.fields)
        return (try read(JSONPayload(text: redacted)), redacted)
    }

    /// JSON as the codec writes it (keys sorted, slashes unescaped).
    static func encodeJSON(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A value from JSON text, read as the codec reads payloads: straight from the text's bytes
    /// (`NodeDecoder`), or by Foundation's decoder when the fast path does not read it, so a
    /// payload means the same to both and a broken one is reported as Foundation reports it.
    static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String, _ reading: JSONReading = .fastThenFoundation) throws -> T {
        if reading != .foundation, let value = try? NodeDecoder.decode(type, from: text) { return value }
        if reading == .fast { return try NodeDecoder.decode(type, from: text) }
        return try decoder.decode(type, from: Data(text.utf8))
    }

    /// How JSON is read: both ways (the codec's), or one alone (the tests hold them to one answer).
    enum JSONReading { case fastThenFoundation, fast, foundation }

    /// The event a payload in clear holds, read one way (`JSONReading`).
    static func event(type: String, payload: String, _ reading: JSONReading) throws -> DomainEvent {
        guard let read = readerByType[type] else { throw UnknownEventType(type: type) }
        return try read(JSONPayload(text: payload, reading: reading))
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

/// A stored payload's JSON text, read as the codec reads JSON (`decodeJSON`).
struct JSONPayload: PayloadDecoder {
    let text: String
    var reading = EventCodec.JSONReading.fastThenFoundation

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try EventCodec.decodeJSON(type, text, reading)
    }
}

extension DomainEvent {
    /// This event's stored name and payload, whichever aggregate it belongs to.
    var stored: (type: String, payload: any Encodable & Sendable) { declared.storedForm }

    /// The personal data this event holds (whose key seals which fields), or nil.
    public var personalData: PersonalData? { declared.personalData }

    /// The member whose personal data this event erases, or nil.
    public var erases: UserID? { declared.erases }

    /// The aggregate's event this is, with what it declares (stored form, personal data, erasure).
    var declared: any StoredEvent {
        switch self {
        case .book(let e): e
        case .user(let e): e
        case .emailClaim(let e): e
        case .loan(let e): e
        case .patron(let e): e
        case .inbox(let e): e
        case .bookmark(let e): e
        case .isbnClaim(let e): e
        case .hold(let e): e
        case .cardClaim(let e): e
        case .walkIn(let e): e
        case .appKey(let e): e
        case .usernameClaim(let e): e
        }
    }
}

extension StoredEvent {
    var storedForm: (type: String, payload: any Encodable & Sendable) {
        let (type, payload) = stored
        return (type.rawValue, payload)
    }
}
