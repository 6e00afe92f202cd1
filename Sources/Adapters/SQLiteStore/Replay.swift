import Application
import Foundation
import GRDB
import LogChain

/// `audit replay` and time travel: copy a prefix of the log, hashes and all, into a new database
/// and let its projections build the read models there. The live database is only read.
extension LibraryDatabase: LogReplayer {
    /// The copy carries the chain key (`<path>.key`, the same secret) when the log has one, so it verifies on its own.
    public func replay(into path: String, until: ReplayLimit, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        try await copyLog(into: path, until: until, carryingKey: true, progress: progress)
    }

    private func copyLog(
        into path: String, until: ReplayLimit, carryingKey: Bool, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> Int64 {
        for file in [path, path + ".key"] where FileManager.default.fileExists(atPath: file) {
            throw InvalidInput("into", .fileExists(file))
        }
        let target = try LibraryDatabase(path: path, durability: .off, cipher: cipher)
        defer { try? target.close() }
        if carryingKey, let key = chain.key {
            let copy = try key.copy(to: path + ".key")
            try await target.pool.write { db in try ChainKeyRecord.record(copy, db) }
        }
        if carryingKey { try await copyKeys(to: target) }
        let last = try await lastPosition(until)
        var after: Int64 = 0
        while after < last {
            let rows = try await scans.read { [after, cipher] db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT \(EventRows.columns), hash FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT 5000",
                    arguments: [after, last]
                ).map { [keys = PersonalKeys.Reader(db, cipher: cipher)] in ($0, try EventRows.recorded($0, keys)) }
                    .map { row, event in (HashChain.Fields(row), row["hash"] as String?, event) }
            }
            guard let tail = rows.last else { break }
            try await target.pool.write { [projections = target.projections] db in
                for (f, hash, event) in rows {
                    try db.execute(
                        sql: """
                            INSERT INTO events (position, stream_id, stream_version, event_type, payload, event_id, recorded_at, actor,
                                                correlation_id, causation_id, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            f.position, f.streamID, f.streamVersion, f.eventType, f.payload, f.eventID, f.recordedAt, f.actor,
                            f.correlationID, f.causationID, hash,
                        ])
                    try projections.apply(event, db)
                }
                try projections.markCaughtUp(db)
            }
            after = tail.0.position
            progress(after, last)
        }
        return after
    }

    public func withSnapshot<T: Sendable>(until: ReplayLimit, _ body: (LibrarySnapshot) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-asof-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("snapshot.sqlite").path
        let events = try await copyLog(into: path, until: until, carryingKey: false) { _, _ in }
        let snapshot = try LibraryDatabase(path: path, durability: .off, cipher: cipher)
        defer { try? snapshot.close() }
        return try await body(
            LibrarySnapshot(
                catalogue: snapshot.catalogue, loans: snapshot.loans, notices: snapshot.loans, accounts: snapshot.accounts,
                holds: snapshot.holds, events: events))
    }

    /// The last position a limit includes.
    private func lastPosition(_ until: ReplayLimit) async throws -> Int64 {
        try await scans.read { db in
            switch until {
            case .end: return try EventRows.head(db)
            case .position(let position): return min(position, try EventRows.head(db))
            case .time(let date):
                return try Int64.fetchOne(
                    db, sql: "SELECT MAX(position) FROM events WHERE recorded_at <= ?", arguments: [Timestamp.format(date)]) ?? 0
            }
        }
    }
}

extension LibraryDatabase {
    /// Gives a copy of this library its members' keys, its erased members and the secret naming
    /// its claim streams, so the copy reads, names and verifies as this one does (a key deleted
    /// here later stays in the copy: a copy is a backup).
    func copyKeys(to target: LibraryDatabase) async throws {
        let (keys, erased, streams, secret) = try await scans.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT subject, key FROM personal_keys").map { ($0["subject"] as String, $0["key"] as Data) },
                try Row.fetchAll(db, sql: "SELECT subject, position FROM erased_members").map {
                    ($0["subject"] as String, $0["position"] as Int64)
                },
                try String.fetchAll(db, sql: "SELECT digest FROM erased_streams"),
                try Data.fetchOne(db, sql: "SELECT secret FROM library_secrets WHERE name = 'claim names'")
            )
        }
        try await target.pool.write { db in
            for (subject, key) in keys {
                try db.execute(sql: "INSERT INTO personal_keys (subject, key) VALUES (?, ?)", arguments: [subject, key])
            }
            for (subject, position) in erased {
                try db.execute(sql: "INSERT INTO erased_members (subject, position) VALUES (?, ?)", arguments: [subject, position])
            }
            for digest in streams { try db.execute(sql: "INSERT INTO erased_streams (digest) VALUES (?)", arguments: [digest]) }
            // The copy names claims as this library does: with its stored secret, or from the chain key it carries.
            try db.execute(sql: "DELETE FROM library_secrets")
            if let secret {
                try db.execute(sql: "INSERT INTO library_secrets (name, secret) VALUES ('claim names', ?)", arguments: [secret])
            }
        }
    }
}
