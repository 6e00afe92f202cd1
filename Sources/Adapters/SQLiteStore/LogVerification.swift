import Application
import Foundation
import GRDB

/// `audit verify` on the SQLite log: the hash chain event by event, positions and stream versions
/// without gaps, the append-only triggers, and a full replay into a scratch database whose read
/// models must equal the live ones row for row.
extension LibraryDatabase: LogVerifier {
    /// Read-model tables compared after a replay, with the columns that identify a row.
    static let readModelTables: [(table: String, key: String)] = [
        ("catalogue_books", "id"), ("accounts", "id"), ("sessions", "session_id"), ("loans", "id"), ("notices", "id"),
        ("bookmarks", "member_id || ' ' || key"),
    ]

    public func verify(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> [AuditCheck] {
        let chain = try await scans.read { db in try Self.checkChain(db, progress: progress) }
        let triggers = try await scans.read { db in try Self.checkTriggers(db) }
        let replay = try await compareReplay()
        return chain + [triggers, replay]
    }

    /// The chain and contiguity, in one pass over the log.
    static func checkChain(_ db: Database, progress: (Int64, Int64) -> Void) throws -> [AuditCheck] {
        let total = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0
        var previous = HashChain.genesis
        var expectedPosition: Int64 = 1
        var versions: [String: Int64] = [:]
        var chainBreak: String?
        var gap: String?
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM events ORDER BY position")
        while let row = try rows.next() {
            let fields = HashChain.Fields(row)
            if gap == nil, fields.position != expectedPosition {
                gap = "position \(expectedPosition) is missing (the next event is at \(fields.position))"
            }
            let stream = fields.streamID
            if gap == nil, fields.streamVersion != versions[stream, default: 0] + 1 {
                gap = "stream \(stream) jumps from version \(versions[stream, default: 0]) to \(fields.streamVersion) at position \(fields.position)"
            }
            versions[stream] = fields.streamVersion
            expectedPosition = fields.position + 1
            let hash = HashChain.hash(previous: previous, fields)
            if chainBreak == nil, hash != (row["hash"] as String?) {
                chainBreak = "the chain breaks at position \(fields.position) (stored \((row["hash"] as String?)?.prefix(12) ?? "nothing"), computed \(hash.prefix(12)))"
            }
            previous = (row["hash"] as String?) ?? hash
            if fields.position % 10_000 == 0 { progress(fields.position, total) }
        }
        progress(total, total)
        let seen = try Int64.fetchOne(db, sql: "SELECT MAX(position) FROM projection_positions") ?? 0
        if gap == nil, seen > expectedPosition - 1 {
            gap = "the read models have seen position \(seen) but the log ends at \(expectedPosition - 1): events were removed"
        }
        return [
            AuditCheck(name: "hash chain", passed: chainBreak == nil, detail: chainBreak ?? "\(total) events chained"),
            AuditCheck(name: "contiguity", passed: gap == nil, detail: gap ?? "positions 1...\(total), \(versions.count) streams without gaps"),
        ]
    }

    static func checkTriggers(_ db: Database) throws -> AuditCheck {
        let names = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"))
        let missing = ["events_no_update", "events_no_delete"].filter { !names.contains($0) }
        return AuditCheck(name: "append-only triggers", passed: missing.isEmpty,
                          detail: missing.isEmpty ? "UPDATE and DELETE on events abort" : "missing: \(missing.joined(separator: ", "))")
    }

    /// Replays the whole log into a scratch database and compares every read model with the live one.
    func compareReplay() async throws -> AuditCheck {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-replay-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scratch = try LibraryDatabase(path: folder.appendingPathComponent("replay.sqlite").path, durability: .off)
        var position: Int64 = 0
        while true {
            let events = try await eventStore.readAll(after: position, limit: 5_000)
            guard let last = events.last else { break }
            try await scratch.pool.write { [projections = scratch.projections] db in
                for event in events { try projections.apply(event, db) }
            }
            position = last.position
        }
        let livePath = pool.path
        let difference: String? = try await scratch.pool.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS live", arguments: [livePath])
            defer { try? db.execute(sql: "DETACH DATABASE live") }
            for (table, key) in Self.readModelTables {
                if let row = try Row.fetchOne(db, sql: "SELECT \(key) AS k, * FROM live.\(table) EXCEPT SELECT \(key) AS k, * FROM main.\(table) LIMIT 1") {
                    let replayed = try Row.fetchOne(db, sql: "SELECT * FROM main.\(table) WHERE \(key) = ?", arguments: [row["k"] as DatabaseValue])
                    return "\(table) \(row["k"] as DatabaseValue): live \(Self.describe(row)), replayed \(replayed.map(Self.describe) ?? "no row")"
                }
                if let row = try Row.fetchOne(db, sql: "SELECT \(key) AS k, * FROM main.\(table) EXCEPT SELECT \(key) AS k, * FROM live.\(table) LIMIT 1") {
                    return "\(table) \(row["k"] as DatabaseValue): live has no row, replayed \(Self.describe(row))"
                }
            }
            return nil
        }
        try scratch.close()
        return AuditCheck(name: "replay", passed: difference == nil,
                          detail: difference ?? "\(position) events replayed; \(Self.readModelTables.count) read models equal row for row")
    }

    private static func describe(_ row: Row) -> String {
        row.columnNames.filter { $0 != "k" }.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ")
    }
}
