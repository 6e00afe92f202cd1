import Application
import Domain
import Foundation
import GRDB

/// An event ready for the writer: encoded outside the write transaction.
struct EncodedEvent: Sendable {
    let event: DomainEvent
    let metadata: EventMetadata
    let type: String
    let payload: String

    init(_ pending: PendingEvent) throws {
        event = pending.event
        metadata = pending.metadata
        (type, payload) = try EventCodec.encode(pending.event)
    }
}

/// Reading and writing rows of the `events` table.
enum EventRows {
    static let columns =
        "position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor, correlation_id, causation_id"

    /// Writes one event at `position` (the next one), chained to `previous`; returns its hash.
    static func insert(
        _ event: EncodedEvent, stream: StreamName, version: Int64, position: Int64, previous: String, _ db: Database
    ) throws -> String {
        let m = event.metadata
        let fields = HashChain.Fields(
            position: position, streamID: stream.rawValue, streamVersion: version, eventType: event.type, payload: event.payload,
            eventID: UUIDText.lowercase(m.eventID), recordedAt: Timestamp.format(m.recordedAt), actor: m.actor,
            correlationID: UUIDText.lowercase(m.correlationID), causationID: m.causationID.map(UUIDText.lowercase))
        let hash = HashChain.hash(previous: previous, fields)
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
        return hash
    }

    static func version(of stream: StreamName, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(stream_version) FROM events WHERE stream_id = ?"), arguments: [stream.rawValue]) ?? 0
    }

    static func head(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(position) FROM events")) ?? 0
    }

    static func stream(_ stream: StreamName, after version: Int64 = 0, _ db: Database) throws -> [RecordedEvent] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) FROM events WHERE stream_id = ? AND stream_version > ? ORDER BY stream_version"),
            arguments: [stream.rawValue, version]
        ).map(recorded)
    }

    static func after(_ position: Int64, limit: Int, _ db: Database) throws -> [RecordedEvent] {
        try Row.fetchAll(
            db, sql: "SELECT \(columns) FROM events WHERE position > ? ORDER BY position LIMIT ?",
            arguments: [position, limit]
        ).map(recorded)
    }

    static func recorded(_ row: Row) throws -> RecordedEvent {
        let metadata = EventMetadata(
            eventID: try uuid(row["event_id"]),
            recordedAt: try Timestamp.parse(row["recorded_at"]),
            actor: row["actor"],
            correlationID: try uuid(row["correlation_id"]),
            causationID: try (row["causation_id"] as String?).map(uuid))
        return RecordedEvent(
            position: row["position"], stream: StreamName(row["stream_id"] as String), version: row["stream_version"],
            event: try EventCodec.decode(type: row["event_type"], payload: row["payload"]), metadata: metadata)
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUIDText.parse(text) else { throw DatabaseError(message: "not a UUID in the log: \(text)") }
        return uuid
    }
}
