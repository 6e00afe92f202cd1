import Application
import Foundation
import LogChain
import PostgresNIO

/// A log copied out of PostgreSQL (time travel, `audit replay`) or into it (`shelfmark copy`),
/// verbatim: the stored columns and hashes as they are, so the copy verifies as the source does.
extension PostgresLibrary: LogCopySource {
    public func lastPosition(_ until: ReplayLimit) async throws -> Int64 {
        try await client.session(logger) { session in
            let head = try await PostgresEventRows.head(session)
            switch until {
            case .end: return head
            case .position(let position): return min(position, head)
            case .time(let date):
                return try await session.value(
                    "SELECT COALESCE(MAX(position), 0) FROM events WHERE recorded_at <= \(Timestamp.bound(date))", as: Int64.self) ?? 0
            }
        }
    }

    public func storedEvents(after position: Int64, through last: Int64, limit: Int) async throws -> [StoredEvent] {
        try await client.session(logger) { [cipher] session in
            let rows = try await session.rows(
                """
                SELECT \(unescaped: PostgresEventRows.columns.sql), hash FROM events
                WHERE position > \(position) AND position <= \(last) ORDER BY position LIMIT \(Int64(limit))
                """, as: (Int64, String, Int64, String, String, String, String, String, String, String?, String).self)
            let events = try await PostgresEventRows.recorded(
                rows.map { ($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7, $0.8, $0.9) }, cipher, session)
            return zip(rows, events).map { row, event in
                StoredEvent(
                    fields: HashChain.Fields(
                        position: row.0, streamID: row.1, streamVersion: row.2, eventType: row.3, payload: row.4, eventID: row.5,
                        recordedAt: row.6, actor: row.7, correlationID: row.8, causationID: row.9),
                    hash: row.10, recorded: event)
            }
        }
    }

    public func secrets() async throws -> LibrarySecrets {
        try await client.session(logger) { [chain] session in
            try await session.snapshot {
                LibrarySecrets(
                    personalKeys: try await session.rows("SELECT subject, key FROM personal_keys", as: (String, Data).self).map {
                        (subject: $0.0, key: $0.1)
                    },
                    erasedMembers: try await session.rows("SELECT subject, position FROM erased_members", as: (String, Int64).self).map {
                        (subject: $0.0, position: $0.1)
                    },
                    erasedStreams: try await session.column("SELECT digest FROM erased_streams", as: String.self),
                    claimSecret: try await session.value("SELECT secret FROM library_secrets WHERE name = 'claim names'", as: Data.self),
                    chainKey: chain.key)
            }
        }
    }
}

extension PostgresLibrary: LogCopyTarget {
    /// Takes a library's secrets, in one transaction under the writer's lock. The library must be
    /// opened again to name claims with them (`shelfmark copy` ends once it has copied).
    public func adopt(_ secrets: LibrarySecrets, keyFile: String?) async throws {
        let chainKey = try secrets.chainKey.map { key in
            guard let keyFile else { throw ChainKeyError(.keyFileUncreatable(path: "")) }
            return try key.copy(to: keyFile)
        }
        try await client.session(logger) { session in
            try await session.transaction {
                try await session.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
                if let chainKey {
                    try await session.run("DELETE FROM chain_key")
                    try await session.run(
                        "INSERT INTO chain_key (id, keyed_from, key_id) VALUES (1, \(chainKey.keyedFrom), \(chainKey.id))")
                }
                for (subject, key) in secrets.personalKeys {
                    try await session.run("INSERT INTO personal_keys (subject, key) VALUES (\(subject), \(key))")
                }
                for (subject, position) in secrets.erasedMembers {
                    try await session.run("INSERT INTO erased_members (subject, position) VALUES (\(subject), \(position))")
                }
                for digest in secrets.erasedStreams { try await session.run("INSERT INTO erased_streams (digest) VALUES (\(digest))") }
                try await session.run("DELETE FROM library_secrets")
                if let secret = secrets.claimSecret {
                    try await session.run("INSERT INTO library_secrets (name, secret) VALUES ('claim names', \(secret))")
                }
            }
        }
    }

    /// Appends the events verbatim at the next positions and projects them, in one transaction
    /// under the writer's lock (the database's triggers still check each is the next one).
    public func insert(_ events: [StoredEvent]) async throws {
        try await client.session(logger) { [projections] session in
            try await session.transaction {
                try await session.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
                for event in events {
                    let f = event.fields
                    guard let hash = event.hash else { throw StoredValueProblem("position \(f.position) has no hash") }
                    try await session.run(
                        """
                        INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at,
                                            actor, correlation_id, causation_id, hash)
                        VALUES (\(f.position), \(f.streamID), \(f.streamVersion), \(f.eventType), \(f.payload), \(f.eventID),
                                \(f.recordedAt), \(f.actor), \(f.correlationID), \(f.causationID), \(hash))
                        """)
                    try await projections.apply(event.recorded, session)
                }
                if let last = events.last { try await projections.markCaughtUp(last.fields.position, session) }
            }
        }
    }

    public func copiedHead() async throws -> Int64 {
        try await headPosition()
    }
}
