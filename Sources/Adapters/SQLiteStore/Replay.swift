import Application
import Foundation
import GRDB
import LogChain

/// `audit replay` and time travel: copy a prefix of the log, hashes and all, into a new database
/// and let its projections build the read models there. The live database is only read.
extension LibraryDatabase: LogReplayer {
    /// The copy carries the chain key (`<path>.key`, the same secret) when the log has one, so it verifies on its own.
    public func replay(into path: String, until: ReplayLimit, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        try await SQLiteCopy(of: self, cipher: cipher).replay(into: path, until: until, progress: progress)
    }

    public func withSnapshot<T: Sendable>(until: ReplayLimit, _ body: (LibrarySnapshot) async throws -> T) async throws -> T {
        try await SQLiteCopy(of: self, cipher: cipher).withSnapshot(until: until, body)
    }
}

extension LibraryDatabase: LogCopySource {
    /// The last position a limit includes.
    public func lastPosition(_ until: ReplayLimit) async throws -> Int64 {
        try await scans.read { db in
            switch until {
            case .end: return try EventRows.head(db)
            case .position(let position): return min(position, try EventRows.head(db))
            case .time(let date):
                return try Int64.fetchOne(
                    db, sql: "SELECT MAX(position) FROM events WHERE recorded_at <= ?", arguments: [Timestamp.bound(date)]) ?? 0
            }
        }
    }

    public func storedEvents(after position: Int64, through last: Int64, limit: Int) async throws -> [StoredEvent] {
        try await scans.read { [cipher] db in
            let keys = PersonalKeys.Reader(db, cipher: cipher)
            return try Row.fetchAll(
                db, sql: "SELECT \(EventRows.columns), hash FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?",
                arguments: [position, last, limit]
            ).map { row in StoredEvent(fields: HashChain.Fields(row), hash: row["hash"], recorded: try EventRows.recorded(row, keys)) }
        }
    }

    /// The members' keys, the erased members and the secret naming claim streams (a key deleted
    /// here later stays in a copy: a copy is a backup).
    public func secrets() async throws -> LibrarySecrets {
        let chainKey = chain.key
        return try await scans.read { db in
            LibrarySecrets(
                personalKeys: try Row.fetchAll(db, sql: "SELECT subject, key FROM personal_keys").map { ($0["subject"], $0["key"]) },
                erasedMembers: try Row.fetchAll(db, sql: "SELECT subject, position FROM erased_members").map {
                    ($0["subject"], $0["position"])
                },
                erasedStreams: try String.fetchAll(db, sql: "SELECT digest FROM erased_streams"),
                claimSecret: try Data.fetchOne(db, sql: "SELECT secret FROM library_secrets WHERE name = 'claim names'"),
                chainKey: chainKey)
        }
    }
}

extension LibraryDatabase: LogCopyTarget {
    /// Takes a library's secrets: its members' keys, erased members, the secret naming its claims,
    /// and its chain key (copied to `keyFile`, recorded here).
    public func adopt(_ secrets: LibrarySecrets, keyFile: String?) async throws {
        let chainKey = try secrets.chainKey.map { key in
            guard let keyFile else { throw ChainKeyError(.keyFileUncreatable(path: "")) }
            return try key.copy(to: keyFile)
        }
        try await pool.write { db in
            if let chainKey { try ChainKeyRecord.record(chainKey, db) }
            for (subject, key) in secrets.personalKeys {
                try db.execute(sql: "INSERT INTO personal_keys (subject, key) VALUES (?, ?)", arguments: [subject, key])
            }
            for (subject, position) in secrets.erasedMembers {
                try db.execute(sql: "INSERT INTO erased_members (subject, position) VALUES (?, ?)", arguments: [subject, position])
            }
            for digest in secrets.erasedStreams {
                try db.execute(sql: "INSERT INTO erased_streams (digest) VALUES (?)", arguments: [digest])
            }
            // The copy names claims as the source does: with its stored secret, or from the chain key it carries.
            try db.execute(sql: "DELETE FROM library_secrets")
            if let secret = secrets.claimSecret {
                try db.execute(sql: "INSERT INTO library_secrets (name, secret) VALUES ('claim names', ?)", arguments: [secret])
            }
        }
    }

    public func insert(_ events: [StoredEvent]) async throws {
        try await pool.write { [projections] db in
            for event in events {
                let f = event.fields
                try db.execute(
                    sql: """
                        INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                            correlation_id, causation_id, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        f.position, f.streamID, f.streamVersion, f.eventType, f.payload, f.eventID, f.recordedAt, f.actor, f.correlationID,
                        f.causationID, event.hash,
                    ])
                try projections.apply(event.recorded, db)
            }
            try projections.markCaughtUp(db)
        }
    }

    public func copiedHead() async throws -> Int64 {
        try reads.read { db in try EventRows.head(db) }
    }
}
