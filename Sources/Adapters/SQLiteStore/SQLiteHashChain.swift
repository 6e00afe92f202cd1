import Application
import GRDB
import LogChain

extension HashChain.Fields {
    /// The fields of an `events` row, read by column name.
    init(_ row: Row) {
        self.init(
            position: row["position"], streamID: row["stream_id"], streamVersion: row["stream_version"], eventType: row["event_type"],
            payload: row["payload"], eventID: row["event_id"], recordedAt: row["recorded_at"], actor: row["actor"],
            correlationID: row["correlation_id"], causationID: row["causation_id"])
    }
}

/// The hash chain's tip and its migration, on SQLite.
enum SQLiteHashChain {
    /// Position and hash of the newest event, or (0, genesis).
    static func tip(_ db: Database) throws -> (position: Int64, hash: String) {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT position, hash FROM events ORDER BY position DESC LIMIT 1")) else {
            return (0, HashChain.genesis)
        }
        return (row["position"], row["hash"] ?? HashChain.genesis)
    }

    /// Adds the `hash` column and computes it for events stored before it existed. The append-only
    /// triggers are lifted for this one schema change and put back in the same transaction.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE events ADD COLUMN hash TEXT")
        try db.execute(sql: "DROP TRIGGER events_no_update")
        var previous = HashChain.genesis
        for row in try Row.fetchAll(db, sql: "SELECT * FROM events ORDER BY position") {
            previous = HashChain.hash(previous: previous, HashChain.Fields(row))
            try db.execute(sql: "UPDATE events SET hash = ? WHERE position = ?", arguments: [previous, row["position"] as Int64])
        }
        try db.execute(sql: Schema.noUpdateTrigger)
    }
}
