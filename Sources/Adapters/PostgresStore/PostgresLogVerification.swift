import Application
import Foundation
import LogChain
import PostgresNIO

/// `audit verify` on PostgreSQL: the chain key, the hash chain event by event, positions and
/// stream versions without gaps, the append-only triggers and their functions as Shelfmark made
/// them, a full replay whose read models must equal the live ones row for row, members' personal
/// data, and the anchors. Everything runs in one REPEATABLE READ transaction, so appends on any
/// server meanwhile never make the chain, the replayed events and the live tables disagree, and
/// never wait for it. The replay writes into temporary twins of the read-model tables (a
/// session's temporary tables come first in its search path, so the projections' own statements
/// reach them); the transaction is rolled back, leaving nothing behind.
extension PostgresLibrary: LogVerifier {
    /// The tables of the log and its secrets, the schema's own, and those fed by no event: every
    /// other table of the schema is a read model, replayed and compared.
    static let notReplayed = Set([
        "events", "chain_key", "personal_keys", "erased_members", "erased_streams", "library_secrets", "request_receipts",
        "projection_positions", "shelfmark_migrations",
    ]).union(PostgresReadModels.unprojectedTables)

    public func verify(anchors: AnchorSource, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> [AuditCheck] {
        let anchorFile = AnchorFile.load(anchors)
        return try await client.session(logger) { [chain, projections, eventStore] session in
            try await session.run("BEGIN ISOLATION LEVEL REPEATABLE READ")
            do {
                let checks = try await Self.verify(
                    session, chain: chain, projections: projections, names: eventStore.claimNames, anchorFile: anchorFile,
                    progress: progress)
                try await session.run("ROLLBACK")
                return checks
            } catch {
                try? await session.run("ROLLBACK")
                throw error
            }
        }
    }

    private static func verify(
        _ session: SQLSession, chain: ChainHasher, projections: PostgresProjections, names: ClaimNames, anchorFile: AnchorFile.Loaded?,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> [AuditCheck] {
        let key = RecordedChainKey.check(chain, recorded: try await PostgresChainKey.fetch(session))
        let tables = try await readModelTables(session)
        // Twins holding the live rows, then emptied by each projection's own reset (which leaves
        // rows a migration seeded as a replay starts from them).
        for table in tables {
            let name = quoted(table)
            try await session.run(PostgresQuery(unsafeSQL: "CREATE TEMPORARY TABLE \(name) (LIKE public.\(name) INCLUDING ALL)"))
            // Generated columns are computed again; every other is copied as it is.
            let columns = try await session.column(
                """
                SELECT quote_ident(attname) FROM pg_attribute
                WHERE attrelid = to_regclass('public.' || quote_ident(\(table))) AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
                ORDER BY attnum
                """, as: String.self
            ).joined(separator: ", ")
            try await session.run(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO pg_temp.\(name) (\(columns)) OVERRIDING SYSTEM VALUE SELECT \(columns) FROM public.\(name)"))
        }
        for projection in projections.all { try await projection.reset(session) }
        let total = try await session.value("SELECT count(*) FROM events", as: Int64.self) ?? 0
        var log = LogWalk(chain: chain)
        var personal = PersonalDataCount(names: names)
        var unreadable: UnreadableEvent?
        var replayed: Int64 = 0
        var after: Int64 = 0
        let readings = LogReadings(names: names)
        while true {
            let rows = try await session.rows(
                """
                SELECT \(unescaped: PostgresEventRows.columns.sql), hash FROM events WHERE position > \(after)
                ORDER BY position LIMIT 5000
                """, as: PostgresLibrary.StoredRow.self)
            guard let last = rows.last else { break }
            for row in rows { log.visit(PostgresLibrary.fields(row), stored: row.10) }
            if unreadable == nil {
                do {
                    let events = try await PostgresEventRows.recorded(
                        rows.map { ($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7, $0.8, $0.9) }, projections.cipher, session)
                    var counted = personal
                    try await readings.run(session) {
                        counted = personal
                        for (row, event) in zip(rows, events) {
                            try counted.count(
                                event, PostgresLibrary.fields(row), isErasedStream: readings.isErasedStream, key: readings.key)
                        }
                    }
                    personal = counted
                    for event in events { try await projections.apply(event, session) }
                    replayed += Int64(events.count)
                } catch let error as UnreadableEvent {
                    unreadable = error
                }
            }
            after = last.0
            progress(after, total)
        }
        progress(total, total)
        let seen = try await session.value("SELECT COALESCE(MAX(position), 0) FROM projection_positions", as: Int64.self) ?? 0
        let (chained, contiguity) = log.checks(total: total, seen: seen)
        let triggers = try await PostgresAppendOnly.check(session)
        let replay =
            if let unreadable {
                AuditCheck(
                    .replay, passed: false, .replayStopped(position: unreadable.position, type: unreadable.type, part: unreadable.part))
            } else {
                try await compare(tables, replayed: replayed, session)
            }
        let erased = try await session.rows("SELECT subject, position FROM erased_members", as: (String, Int64).self).map {
            (subject: $0.0, position: $0.1)
        }
        var checks = [key, chained, contiguity, triggers, replay, personal.check(erasedMembers: erased, wholeLog: unreadable == nil)]
        if let anchorFile {
            let read = AnchorFile.read(anchorFile, chain)
            let hashes = Dictionary(
                try await session.rows(
                    "SELECT position, hash FROM events WHERE position = ANY(\(read.positions)::bigint[])", as: (Int64, String).self),
                uniquingKeysWith: { first, _ in first })
            checks.append(read.check(hashes: hashes, head: try await PostgresEventRows.head(session)))
        }
        return checks
    }

    /// The schema's read-model tables, by name.
    static func readModelTables(_ session: SQLSession) async throws -> [String] {
        try await session.column(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename", as: String.self
        ).filter { !notReplayed.contains($0) }
    }

    /// The first difference between a replayed table and the live one (both ways), or how much was equal.
    static func compare(_ tables: [String], replayed: Int64, _ session: SQLSession) async throws -> AuditCheck {
        for table in tables {
            let name = quoted(table)
            let liveOnly = try await session.value(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT row_to_json(d)::text FROM (SELECT * FROM public.\(name) EXCEPT SELECT * FROM pg_temp.\(name)) d LIMIT 1"),
                as: String.self)
            if let liveOnly {
                let key = firstValue(liveOnly)
                let twin = try await session.value(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT row_to_json(t)::text FROM pg_temp.\(name) t
                            WHERE (row_to_json(t)->>(SELECT attname FROM pg_attribute WHERE attrelid = 'public.\(name)'::regclass AND attnum = 1)) = $1
                            """, binds: try binds(key)), as: String.self)
                return AuditCheck(.replay, passed: false, .rowDiffers(table: table, key: key, live: liveOnly, replayed: twin))
            }
            let replayedOnly = try await session.value(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT row_to_json(d)::text FROM (SELECT * FROM pg_temp.\(name) EXCEPT SELECT * FROM public.\(name)) d LIMIT 1"),
                as: String.self)
            if let replayedOnly {
                return AuditCheck(
                    .replay, passed: false, .rowMissingLive(table: table, key: firstValue(replayedOnly), replayed: replayedOnly))
            }
        }
        return AuditCheck(.replay, passed: true, .replayEqual(events: replayed, readModels: tables.count))
    }

    private static func binds(_ value: String) throws -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }

    /// The value of a row's first column, as text, from its JSON.
    private static func firstValue(_ json: String) -> String {
        guard let data = json.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let first = json.split(separator: "\"", maxSplits: 2).dropFirst().first, let value = object[String(first)]
        else { return "" }
        return value is NSNull ? "null" : "\(value)"
    }

    /// A table name quoted as an SQL identifier.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    public func anchor(to path: String, at time: Date) async throws -> LogAnchor {
        let tip = try await client.session(logger) { session in try await PostgresEventRows.tip(session) }
        let anchor = LogAnchor(position: tip.position, hash: tip.hash, time: Timestamp.format(time))
        guard let signature = chain.sign(AnchorFile.signedText(anchor)) else { throw AnchorFileError(.anchorNeedsKey) }
        try AnchorFile.append(anchor, signature: signature, to: path)
        return anchor
    }
}

extension PostgresReadModels {
    /// Tables of the schema no event feeds (login failures, the search cache, the country list):
    /// verify's replay leaves them out.
    static let unprojectedTables: Set<String> = ["login_failures", "search_cache", "country_list"]
}
