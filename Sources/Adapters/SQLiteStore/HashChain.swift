import Crypto
import Foundation
import GRDB

/// The log's tamper evidence: each event's `hash` is SHA-256 over the previous event's hash and
/// this event's canonical encoding (see ARCHITECTURE.md, "Hash chain"), so changing, removing or
/// reordering any stored event breaks the chain from there on. From the chain key's first
/// position on, the same text is HMAC-SHA-256'd with the key instead (`ChainHasher`), so only
/// whoever holds the key file can compute a chain that verifies.
public enum HashChain {
    /// The "previous hash" of the first event.
    public static let genesis = String(repeating: "0", count: 64)

    /// The stored columns of one event, as text, in canonical order.
    struct Fields: Equatable {
        let position: Int64
        let streamID: String
        let streamVersion: Int64
        let eventType: String
        let payload: String
        let eventID: String
        let recordedAt: String
        let actor: String
        let correlationID: String
        let causationID: String?

        init(_ row: Row) {
            position = row["position"]
            streamID = row["stream_id"]
            streamVersion = row["stream_version"]
            eventType = row["event_type"]
            payload = row["payload"]
            eventID = row["event_id"]
            recordedAt = row["recorded_at"]
            actor = row["actor"]
            correlationID = row["correlation_id"]
            causationID = row["causation_id"]
        }

        init(
            position: Int64, streamID: String, streamVersion: Int64, eventType: String, payload: String, eventID: String,
            recordedAt: String, actor: String, correlationID: String, causationID: String?
        ) {
            self.position = position
            self.streamID = streamID
            self.streamVersion = streamVersion
            self.eventType = eventType
            self.payload = payload
            self.eventID = eventID
            self.recordedAt = recordedAt
            self.actor = actor
            self.correlationID = correlationID
            self.causationID = causationID
        }

        /// The canonical encoding: the fields as UTF-8 text, each followed by a line feed
        /// (a missing causation id is the empty string).
        var canonical: String {
            [
                String(position), streamID, String(streamVersion), eventType, payload, eventID, recordedAt, actor, correlationID,
                causationID ?? "",
            ].map { $0 + "\n" }.joined()
        }
    }

    /// SHA-256 (lower-case hex) of the previous hash, a line feed, and the canonical encoding: the
    /// unkeyed formula, for events written before the log was keyed.
    static func hash(previous: String, _ fields: Fields) -> String {
        digest(previous + "\n" + fields.canonical)
    }

    /// Lower-case hex SHA-256 of a text's UTF-8 bytes: the writer's per-event cost (the benchmark measures it).
    public static func digest(_ text: String) -> String {
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(text.utf8)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Position and hash of the newest event, or (0, genesis).
    static func tip(_ db: Database) throws -> (position: Int64, hash: String) {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT position, hash FROM events ORDER BY position DESC LIMIT 1")) else {
            return (0, genesis)
        }
        return (row["position"], row["hash"] ?? genesis)
    }

    /// Adds the `hash` column and computes it for events stored before it existed. The append-only
    /// triggers are lifted for this one schema change and put back in the same transaction.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE events ADD COLUMN hash TEXT")
        try db.execute(sql: "DROP TRIGGER events_no_update")
        var previous = genesis
        for row in try Row.fetchAll(db, sql: "SELECT * FROM events ORDER BY position") {
            previous = hash(previous: previous, Fields(row))
            try db.execute(sql: "UPDATE events SET hash = ? WHERE position = ?", arguments: [previous, row["position"] as Int64])
        }
        try db.execute(sql: Schema.noUpdateTrigger)
    }
}
