import Application
import Domain
import Foundation
import LogChain
import PostgresNIO

/// What a pass over rows of the log needs read beside them: members' keys and which legacy
/// claim streams belong to erased members. A pass asks; what it asked and was not read yet
/// answers "none" and is noted, then read in one statement each, and the pass runs again.
final class LogReadings {
    private var keys: [UserID: SubjectKey] = [:]
    private var missingKeys: Set<UserID> = []
    private var erasedStreams: [String: Bool] = [:]
    private var missingStreams: Set<String> = []
    let names: ClaimNames

    init(names: ClaimNames) { self.names = names }

    func key(_ subject: UserID) -> SubjectKey {
        if let key = keys[subject] { return key }
        missingKeys.insert(subject)
        return .none
    }

    /// Whether a stream is a legacy claim stream named by an erased member's address.
    func isErasedStream(_ stream: String) -> Bool {
        guard stream.hasPrefix("email-"), stream.contains("@") else { return false }
        if let erased = erasedStreams[stream] { return erased }
        missingStreams.insert(stream)
        return false
    }

    /// The name an export gives such a stream: its digest, not the address.
    func redactedName(_ stream: String) -> String { "email-erased-" + names.digest(of: StreamName(stream)) }

    /// Runs `pass` until everything it asked for was read before it ran.
    func run<T>(_ session: SQLSession, _ pass: () throws -> T) async throws -> T {
        while true {
            let result = try pass()
            if missingKeys.isEmpty, missingStreams.isEmpty { return result }
            keys.merge(try await PostgresPersonalKeys.keys(of: missingKeys, session)) { $1 }
            missingKeys = []
            let asked = Array(missingStreams)
            let digests = asked.map { names.digest(of: StreamName($0)) }
            let erased = Set(
                try await session.column("SELECT digest FROM erased_streams WHERE digest = ANY(\(digests)::text[])", as: String.self))
            for (stream, digest) in zip(asked, digests) { erasedStreams[stream] = erased.contains(digest) }
            missingStreams = []
        }
    }
}

extension PostgresLibrary: LogArchive {
    typealias StoredRow = (Int64, String, Int64, String, String, String, String, String, String, String?, String)

    static func fields(_ row: StoredRow) -> HashChain.Fields {
        HashChain.Fields(
            position: row.0, streamID: row.1, streamVersion: row.2, eventType: row.3, payload: row.4, eventID: row.5, recordedAt: row.6,
            actor: row.7, correlationID: row.8, causationID: row.9)
    }

    public func export(from position: Int64, secrets: ExportedSecrets, to write: (String) throws -> Void) async throws -> Int64 {
        try await client.session(logger) { [eventStore] session in
            // One snapshot for the whole export: appends meanwhile are not in it, and never half in it.
            try await session.snapshot {
                var after = max(0, position - 1)
                var writer = LogExportFormat.Writer(
                    secrets: secrets,
                    previous: try await session.value("SELECT hash FROM events WHERE position = \(after)", as: String.self)
                        ?? HashChain.genesis)
                let readings = LogReadings(names: eventStore.claimNames)
                while true {
                    let rows = try await session.rows(
                        """
                        SELECT \(unescaped: PostgresEventRows.columns.sql), hash FROM events WHERE position > \(after)
                        ORDER BY position LIMIT 5000
                        """, as: StoredRow.self)
                    guard !rows.isEmpty else { return writer.count }
                    let erased = try await readings.run(session) {
                        try rows.map { row in
                            try LogExportFormat.erased(
                                Self.fields(row), keys: readings.key, isErasedStream: readings.isErasedStream,
                                redactedName: readings.redactedName)
                        }
                    }
                    for (row, erased) in zip(rows, erased) {
                        try writer.write(Self.fields(row), hash: row.10, erased: erased, to: write)
                        after = row.0
                    }
                }
            }
        }
    }

    public func verifyExport(lines: [String]) -> [AuditCheck] { LogExportFormat.verifyExport(lines: lines, chain: chain) }

    /// A stream's history. An erased member's legacy claim stream reads as a stream with no
    /// events, as an address never used does.
    public func history(_ stream: StreamName, page: PageRequest) async throws -> Page<LoggedEvent> {
        try await client.session(logger) { [eventStore, cipher] session in
            try await session.snapshot {
                let readings = LogReadings(names: eventStore.claimNames)
                if try await readings.run(session, { readings.isErasedStream(stream.rawValue) }) {
                    return Page(items: [], total: 0, of: page)
                }
                let total = try await session.value("SELECT count(*) FROM events WHERE stream_id = \(stream.rawValue)", as: Int64.self) ?? 0
                let rows = try await session.rows(
                    """
                    SELECT \(unescaped: PostgresEventRows.columns.sql), hash FROM events WHERE stream_id = \(stream.rawValue)
                    ORDER BY stream_version LIMIT \(Int64(page.limit)) OFFSET \(Int64(page.offset))
                    """, as: StoredRow.self)
                let items = try await readings.run(session) { try rows.map { try Self.logged($0, cipher, readings) } }
                return Page(items: items, total: Int(total), of: page)
            }
        }
    }

    public func events(_ stream: StreamName, before version: Int64) async throws -> [LoggedEvent] {
        try await client.session(logger) { [eventStore, cipher] session in
            try await session.snapshot {
                let readings = LogReadings(names: eventStore.claimNames)
                if try await readings.run(session, { readings.isErasedStream(stream.rawValue) }) { return [] }
                let rows = try await session.rows(
                    """
                    SELECT \(unescaped: PostgresEventRows.columns.sql), hash FROM events
                    WHERE stream_id = \(stream.rawValue) AND stream_version < \(version) ORDER BY stream_version
                    """, as: StoredRow.self)
                return try await readings.run(session) { try rows.map { try Self.logged($0, cipher, readings) } }
            }
        }
    }

    /// One row as history reads it: its personal data opened with the member's key (`null` once
    /// erased); a payload that cannot be read back said as `UnreadableEvent`.
    static func logged(_ row: StoredRow, _ cipher: any PersonalCipher, _ readings: LogReadings) throws -> LoggedEvent {
        let payload = try UnreadableEvent.reading(.payload, of: row.0, row.3) {
            try EventCodec.readable(type: row.3, payload: row.4, cipher: cipher, keys: readings.key)
        }
        return LoggedEvent(
            position: row.0, version: row.2, type: row.3, recordedAt: row.6, actor: row.7, payload: payload, correlationID: row.8)
    }
}
