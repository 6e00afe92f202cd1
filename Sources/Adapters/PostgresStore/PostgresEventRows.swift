import Application
import Domain
import Foundation
import LogChain
import PostgresNIO

/// Reading and writing rows of the `events` table, stored as the SQLite store stores them (the
/// same text in every column), so the hash chain is the same on both and a copied log verifies.
enum PostgresEventRows {
    typealias Row = (Int64, String, Int64, String, String, String, String, String, String, String?)
    static let columns: PostgresQuery =
        "position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor, correlation_id, causation_id"

    /// Writes one event at `position` (the next one), chained to `previous`, its personal data
    /// sealed (the chain covers the sealed text); deletes the key of the member it erases. Returns its hash.
    static func insert(
        _ event: EncodedEvent, stream: StreamName, version: Int64, position: Int64, previous: String, chain: ChainHasher,
        names: ClaimNames, cipher: any PersonalCipher, _ session: SQLSession
    ) async throws -> String {
        let m = event.metadata
        let payload = try await PostgresPersonalKeys.seal(event.encoded, cipher, session)
        let f = HashChain.Fields(
            position: position, streamID: stream.rawValue, streamVersion: version, eventType: event.encoded.type, payload: payload,
            eventID: UUIDText.lowercase(m.eventID), recordedAt: Timestamp.format(m.recordedAt), actor: m.actor,
            correlationID: UUIDText.lowercase(m.correlationID), causationID: m.causationID.map(UUIDText.lowercase))
        let hash = chain.hash(previous: previous, f)
        try await session.run(
            """
            INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at,
                                actor, correlation_id, causation_id, hash)
            VALUES (\(f.position), \(f.streamID), \(f.streamVersion), \(f.eventType), \(f.payload), \(f.eventID), \(f.recordedAt),
                    \(f.actor), \(f.correlationID), \(f.causationID), \(hash))
            """)
        if let member = event.encoded.erases { try await PostgresPersonalKeys.erase(member, at: position, names: names, session) }
        return hash
    }

    /// The number of events in `stream`.
    static func version(of stream: StreamName, _ session: SQLSession) async throws -> Int64 {
        try await session.value("SELECT COALESCE(MAX(stream_version), 0) FROM events WHERE stream_id = \(stream.rawValue)", as: Int64.self)
            ?? 0
    }

    /// Whether the stream's event at `version` is the one with id `id` (`ExpectedVersion.endingWith`).
    static func event(_ id: UUID, isAt version: Int64, of stream: StreamName, _ session: SQLSession) async throws -> Bool {
        try await session.value(
            "SELECT event_id FROM events WHERE stream_id = \(stream.rawValue) AND stream_version = \(version)", as: String.self)
            == UUIDText.lowercase(id)
    }

    /// Position and hash of the newest event, or (0, genesis).
    static func tip(_ session: SQLSession) async throws -> (position: Int64, hash: String) {
        let rows = try await session.rows("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1", as: (Int64, String).self)
        return rows.first.map { ($0.0, $0.1) } ?? (0, HashChain.genesis)
    }

    /// The newest position, 0 for an empty log.
    static func head(_ session: SQLSession) async throws -> Int64 {
        try await session.value("SELECT COALESCE(MAX(position), 0) FROM events", as: Int64.self) ?? 0
    }

    /// The events of one stream after `version`, oldest first.
    static func stream(_ stream: StreamName, after version: Int64, _ cipher: any PersonalCipher, _ session: SQLSession) async throws
        -> [RecordedEvent]
    {
        let rows = try await session.rows(
            "SELECT \(unescaped: columns.sql) FROM events WHERE stream_id = \(stream.rawValue) AND stream_version > \(version) ORDER BY stream_version",
            as: Row.self)
        return try await recorded(rows, cipher, session)
    }

    /// Up to `limit` events after `position`, in log order.
    static func after(_ position: Int64, limit: Int, _ cipher: any PersonalCipher, _ session: SQLSession) async throws -> [RecordedEvent] {
        let rows = try await session.rows(
            "SELECT \(unescaped: columns.sql) FROM events WHERE position > \(position) ORDER BY position LIMIT \(Int64(limit))",
            as: Row.self)
        return try await recorded(rows, cipher, session)
    }

    /// The events in `rows`, their personal data opened with their members' keys, read in one
    /// statement for every member the rows need (erased without a key).
    static func recorded(_ rows: [Row], _ cipher: any PersonalCipher, _ session: SQLSession) async throws -> [RecordedEvent] {
        let keys = KeysAsked()
        var events = try rows.indices.map { index in
            keys.current = index
            return try recorded(rows[index], cipher, keys)
        }
        guard !keys.missing.isEmpty else { return events }
        keys.known = try await PostgresPersonalKeys.keys(of: keys.missing, session)
        keys.missing = []
        for index in events.indices where keys.asked.contains(index) {
            keys.current = index
            events[index] = try recorded(rows[index], cipher, keys)
        }
        return events
    }

    /// The members' keys decoding asked for: those not read yet answer "none" and are noted, and
    /// the rows that asked are decoded again once they are read.
    private final class KeysAsked {
        var known: [UserID: SubjectKey] = [:]
        var missing: Set<UserID> = []
        var asked: Set<Int> = []
        var current = 0

        func key(_ subject: UserID) -> SubjectKey {
            if let key = known[subject] { return key }
            missing.insert(subject)
            asked.insert(current)
            return .none
        }
    }

    private static func recorded(_ row: Row, _ cipher: any PersonalCipher, _ keys: KeysAsked) throws -> RecordedEvent {
        let (position, stream, version, type, payload, eventID, recordedAt, actor, correlationID, causationID) = row
        func read<T>(_ part: AuditFinding.EventPart, _ body: () throws -> T) throws -> T {
            try UnreadableEvent.reading(part, of: position, type, body)
        }
        let metadata = EventMetadata(
            eventID: try read(.eventID) { try uuid(eventID) },
            recordedAt: try read(.time) { try Timestamp.parse(recordedAt) },
            actor: actor,
            correlationID: try read(.correlationID) { try uuid(correlationID) },
            causationID: try read(.causationID) { try causationID.map(uuid) })
        return RecordedEvent(
            position: position, stream: StreamName(stream), version: version,
            event: try read(.payload) { try EventCodec.decode(type: type, payload: payload, cipher: cipher, keys: keys.key) },
            metadata: metadata)
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUIDText.parse(text) else { throw StoredValueProblem("not a UUID in the log: \(text)") }
        return uuid
    }
}
