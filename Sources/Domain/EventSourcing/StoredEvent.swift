/// An aggregate's events in the log's terms: every case has a stable, versioned stored name
/// (`"book.added.v1"`) and one `Codable` payload. The names are the log's format, written once, as
/// the raw values of `StoredType`: renaming Swift code never changes them. How payloads become
/// bytes is the application's business (`EventCodec`), not the domain's.
public protocol StoredEvent: Sendable {
    /// One case per event case; its raw value is the stored name.
    associatedtype StoredType: RawRepresentable<String>, CaseIterable, Sendable

    /// This event's stored name and payload.
    var stored: (type: StoredType, payload: any Encodable & Sendable) { get }

    /// The event of a stored type, its payload read by `payload` as the type that name stores.
    static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> Self

    /// The personal data this event's payload holds, or nil when it holds none.
    var personalData: PersonalData? { get }

    /// The member whose personal data this event erases (their account closed), or nil: the
    /// store deletes that member's key in the same transaction as the event.
    var erases: UserID? { get }

    /// The payload's top-level fields that hold secrets (password hashes, reset-code and session
    /// token digests) in events of `type`: no view of the log shows them (`Secrets` redacts them).
    static func secretFields(of type: StoredType) -> Set<String>
}

extension StoredEvent {
    /// Most events hold no personal data.
    public var personalData: PersonalData? { nil }

    /// Most events erase nothing.
    public var erases: UserID? { nil }

    /// Most events hold no secret.
    public static func secretFields(of type: StoredType) -> Set<String> { [] }
}

/// The personal data in one event's payload: whose it is and which of the payload's top-level
/// JSON fields hold it. The codec seals those fields with that member's key, so closing the
/// account (deleting the key) leaves them unreadable while the chain, over the sealed text,
/// still verifies. Declared by the aggregate, next to the event: one place for each fact.
public struct PersonalData: Equatable, Sendable {
    /// The member whose key seals the fields.
    public let subject: UserID
    /// The payload's top-level keys that hold personal data.
    public let fields: Set<String>
    public init(subject: UserID, fields: Set<String>) {
        self.subject = subject
        self.fields = fields
    }
}

/// Reads one stored payload as the type its stored name says.
public protocol PayloadDecoder {
    func decode<T: Decodable>(_ type: T.Type) throws -> T
}

extension PayloadDecoder {
    /// The payload as the type the caller expects.
    public func decode<T: Decodable>() throws -> T { try decode(T.self) }
}
