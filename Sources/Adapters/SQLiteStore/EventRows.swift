import Application
import Domain
import Foundation
import GRDB
import LogChain

/// Reading and writing rows of the `events` table.
enum EventRows {
    static let columns =
        "position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor, correlation_id, causation_id"

    /// Writes one event at `position` (the next one), chained to `previous`, its personal data
    /// sealed (the chain covers the sealed text); deletes the key of the member it erases. Returns its hash.
    static func insert(
        _ event: EncodedEvent, stream: StreamName, version: Int64, position: Int64, previous: String, chain: ChainHasher,
        names: ClaimNames, cipher: any PersonalCipher, _ db: Database
    ) throws -> String {
        let m = event.metadata
        let payload = try PersonalKeys.seal(event.encoded, cipher, db)
        let fields = HashChain.Fields(
            position: position, streamID: stream.rawValue, streamVersion: version, eventType: event.encoded.type, payload: payload,
            eventID: UUIDText.lowercase(m.eventID), recordedAt: Timestamp.format(m.recordedAt), actor: m.actor,
            correlationID: UUIDText.lowercase(m.correlationID), causationID: m.causationID.map(UUIDText.lowercase))
        let hash = chain.hash(previous: previous, fields)
        try db.cached(
            sql: """
                INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at,
                                    actor, correlation_id, causation_id, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                position, fields.streamID, version, fields.eventType, fields.payload, fields.eventID, fields.recordedAt,
                fields.actor, fields.correlationID, fields.causationID, hash,
            ])
        if let member = event.encoded.erases { try PersonalKeys.erase(member, at: position, names: names, db) }
        return hash
    }

    static func version(of stream: StreamName, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT MAX(stream_version) FROM events WHERE stream_id = ?"), arguments: [stream.rawValue]) ?? 0
    }

    /// Whether the stream's event at `version` is the one with id `id` (`ExpectedVersion.endingWith`).
    static func event(_ id: UUID, isAt version: Int64, of stream: StreamName, _ db: Database) throws -> Bool {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT event_id FROM events WHERE stream_id = ? AND stream_version = ?"),
            arguments: [stream.rawValue, version]) == UUIDText.lowercase(id)
    }

    static func head(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(position) FROM events")) ?? 0
    }

    static func stream(_ stream: StreamName, after version: Int64 = 0, _ cipher: any PersonalCipher, _ db: Database) throws
        -> [RecordedEvent]
    {
        let keys = PersonalKeys.Reader(db, cipher: cipher)
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) FROM events WHERE stream_id = ? AND stream_version > ? ORDER BY stream_version"),
            arguments: [stream.rawValue, version]
        ).map { try recorded($0, keys) }
    }

    static func after(_ position: Int64, limit: Int, _ cipher: any PersonalCipher, _ db: Database) throws -> [RecordedEvent] {
        let keys = PersonalKeys.Reader(db, cipher: cipher)
        return try Row.fetchAll(
            db, sql: "SELECT \(columns) FROM events WHERE position > ? ORDER BY position LIMIT ?",
            arguments: [position, limit]
        ).map { try recorded($0, keys) }
    }

    /// The event in a row whose first columns are `columns`, in that order (read by position:
    /// GRDB's lookup by name lower-cases every name of every row), its personal data opened with
    /// `keys` (erased without them); an `UnreadableEvent` naming its position when a column cannot be read back.
    static func recorded(_ row: Row, _ keys: PersonalKeys.Reader) throws -> RecordedEvent {
        let position: Int64 = row[0]
        let type: String = row[3]
        func read<T>(_ part: AuditFinding.EventPart, _ body: () throws -> T) throws -> T {
            try UnreadableEvent.reading(part, of: position, type, body)
        }
        let metadata = EventMetadata(
            eventID: try read(.eventID) { try uuid(row[5]) },
            recordedAt: try read(.time) { try Timestamp.parse(row[6]) },
            actor: row[7],
            correlationID: try read(.correlationID) { try uuid(row[8]) },
            causationID: try read(.causationID) { try (row[9] as String?).map(uuid) })
        return RecordedEvent(
            position: position, stream: StreamName(row[1] as String), version: row[2],
            event: try read(.payload) { try EventCodec.decode(type: type, payload: row[4], cipher: keys.cipher, keys: keys.key) },
            metadata: metadata)
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUIDText.parse(text) else { throw DatabaseError(message: "not a UUID in the log: \(text)") }
        return uuid
    }
}
