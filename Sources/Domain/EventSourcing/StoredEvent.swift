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
}

/// Reads one stored payload as the type its stored name says.
public protocol PayloadDecoder {
    func decode<T: Decodable>(_ type: T.Type) throws -> T
}

extension PayloadDecoder {
    /// The payload as the type the caller expects.
    public func decode<T: Decodable>() throws -> T { try decode(T.self) }
}
