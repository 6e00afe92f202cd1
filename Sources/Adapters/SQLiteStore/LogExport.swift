import Application
import Foundation
import GRDB
import LogChain

extension LibraryDatabase {
    /// Writes the log from `position` on as JSON lines to `write`, in order, its secrets redacted
    /// unless `secrets` is `.included`; returns the number written.
    public func export(
        from position: Int64 = 1, secrets: ExportedSecrets = .redacted, to write: (String) throws -> Void
    ) async throws -> Int64 {
        var after = max(0, position - 1)
        var writer = LogExportFormat.Writer(
            secrets: secrets,
            previous: try await scans.read { [after] db in
                try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = ?", arguments: [after]) ?? HashChain.genesis
            })
        while true {
            let rows = try await scans.read { [after, claimNames = eventStore.claimNames, cipher] db in
                let (keys, streams) = (PersonalKeys.Reader(db, cipher: cipher), PersonalKeys.ErasedStreams(db, names: claimNames))
                return try Row.fetchAll(db, sql: "SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 5000", arguments: [after])
                    .map { row in
                        let f = HashChain.Fields(row)
                        return (
                            f, (row["hash"] as String?) ?? "",
                            try LogExportFormat.erased(
                                f, keys: keys.key, isErasedStream: streams.contains, redactedName: streams.redactedName)
                        )
                    }
            }
            guard !rows.isEmpty else { return writer.count }
            try await eventStore.flushNow()  // no event leaves the process before it is on disk
            for (f, hash, erased) in rows {
                try writer.write(f, hash: hash, erased: erased, to: write)
                after = f.position
            }
        }
    }

    /// Verifies an exported log offline, without the chain key (see `LogExportFormat.verifyExport`).
    public static func verifyExport(lines: some Sequence<String>) -> [AuditCheck] {
        LogExportFormat.verifyExport(lines: lines, chain: .unkeyed)
    }
}

extension LibraryDatabase: LogArchive {
    public func verifyExport(lines: [String]) -> [AuditCheck] { LogExportFormat.verifyExport(lines: lines, chain: chain) }

    /// A stream's history. An erased member's legacy claim stream (named by their address, written
    /// before sealing) reads as a stream with no events, as an address never used does: its name
    /// would otherwise confirm the address was a member's.
    public func history(_ stream: StreamName, page: PageRequest) async throws -> Page<LoggedEvent> {
        try await scans.read { db in
            if try PersonalKeys.ErasedStreams(db, names: eventStore.claimNames).contains(stream.rawValue) {
                return Page(items: [], total: 0, of: page)
            }
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events WHERE stream_id = ?", arguments: [stream.rawValue]) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM events WHERE stream_id = ? ORDER BY stream_version LIMIT ? OFFSET ?",
                arguments: [stream.rawValue, page.limit, page.offset])
            let keys = PersonalKeys.Reader(db, cipher: cipher)
            return Page(items: try rows.map { try Self.loggedEvent($0, keys) }, total: total, of: page)
        }
    }

    public func events(_ stream: StreamName, before version: Int64) async throws -> [LoggedEvent] {
        try await scans.read { db in
            if try PersonalKeys.ErasedStreams(db, names: eventStore.claimNames).contains(stream.rawValue) { return [] }
            let keys = PersonalKeys.Reader(db, cipher: cipher)
            return try Row.fetchAll(
                db, sql: "SELECT * FROM events WHERE stream_id = ? AND stream_version < ? ORDER BY stream_version",
                arguments: [stream.rawValue, version]
            ).map { try Self.loggedEvent($0, keys) }
        }
    }

    /// One row of `events` as history reads it: its personal data opened with the member's key
    /// (`null` once erased), in the same read transaction as the row. A payload that cannot be read
    /// back is said as `UnreadableEvent`, as every other read of the log says it (an outside test
    /// found history, the tool for looking into a changed log, failing there as an internal error).
    static func loggedEvent(_ row: Row, _ keys: PersonalKeys.Reader) throws -> LoggedEvent {
        let type: String = row["event_type"]
        let payload = try UnreadableEvent.reading(.payload, of: row["position"], type) {
            try EventCodec.readable(type: type, payload: row["payload"], cipher: keys.cipher, keys: keys.key)
        }
        return LoggedEvent(
            position: row["position"], version: row["stream_version"], type: type, recordedAt: row["recorded_at"],
            actor: row["actor"], payload: payload, correlationID: row["correlation_id"])
    }
}
