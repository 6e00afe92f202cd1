import Application
import Foundation
import GRDB
import LogChain

/// One stored event as `audit export` writes it: the stored columns verbatim (the payload as the
/// stored JSON text, so the canonical encoding can be recomputed), with its hash and the previous one.
/// Unless the operator asked for the secrets, `redacted` names the payload's secret fields, which
/// read `Secrets.marker`: that event's hash can then not be recomputed.
public struct ExportedEvent: Codable, Equatable, Sendable {
    public let position: Int64
    public let stream: String
    public let version: Int64
    public let type: String
    public let payload: String
    public let eventId: String
    public let recordedAt: String
    public let actor: String
    public let correlationId: String
    public let causationId: String?
    public let previousHash: String
    public let hash: String
    /// The payload's fields whose values were redacted; absent when none was.
    public var redacted: [String]? = nil

    var fields: HashChain.Fields {
        HashChain.Fields(
            position: position, streamID: stream, streamVersion: version, eventType: type, payload: payload, eventID: eventId,
            recordedAt: recordedAt, actor: actor, correlationID: correlationId, causationID: causationId)
    }
}

extension LibraryDatabase {
    /// Writes the log from `position` on as JSON lines to `write`, in order, its secrets redacted
    /// unless `secrets` is `.included`; returns the number written.
    public func export(
        from position: Int64 = 1, secrets: ExportedSecrets = .redacted, to write: (String) throws -> Void
    ) async throws -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var after = max(0, position - 1)
        var previous = try await scans.read { [after] db in
            try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = ?", arguments: [after]) ?? HashChain.genesis
        }
        var count: Int64 = 0
        while true {
            let rows = try await scans.read { [after, claimNames = eventStore.claimNames, cipher] db in
                let (keys, streams) = (PersonalKeys.Reader(db, cipher: cipher), PersonalKeys.ErasedStreams(db, names: claimNames))
                return try Row.fetchAll(db, sql: "SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 5000", arguments: [after])
                    .map { (HashChain.Fields($0), ($0["hash"] as String?) ?? "", try Self.erased(HashChain.Fields($0), keys, streams)) }
            }
            guard !rows.isEmpty else { return count }
            for (f, hash, erased) in rows {
                // Erased members' personal data is never exported, backups included; secrets only to the operator's.
                let (payload, secret) =
                    secrets == .included ? (erased.payload, []) : Self.redact(type: f.eventType, erased.payload, erased: erased.fields)
                let redacted = Array(Set(secret + erased.fields)).sorted()
                let line = ExportedEvent(
                    position: f.position, stream: erased.stream, version: f.streamVersion, type: f.eventType, payload: payload,
                    eventId: f.eventID, recordedAt: f.recordedAt, actor: f.actor, correlationId: f.correlationID,
                    causationId: f.causationID, previousHash: previous, hash: hash, redacted: redacted.isEmpty ? nil : redacted)
                try write(String(decoding: try encoder.encode(line), as: UTF8.self))
                previous = hash
                after = f.position
                count += 1
            }
        }
    }

    /// An event as an export carries it: sealed personal data stays sealed; personal data in clear
    /// (written before sealing) of a member since erased reads `null`, and a legacy claim stream
    /// named by their address is named by its digest; `fields` lists what was redacted so.
    static func erased(_ f: HashChain.Fields, _ keys: PersonalKeys.Reader, _ streams: PersonalKeys.ErasedStreams) throws
        -> (stream: String, payload: String, fields: [String])
    {
        if try streams.contains(f.streamID) {
            // Its events hold the address in clear (sealed ones, written since, stay sealed).
            let (payload, redacted) = try EventCodec.exported(type: f.eventType, payload: f.payload) { _ in .erased }
            guard var object = PayloadValue.object(parsing: payload), object["email"] != nil else {
                return (streams.redactedName(f.streamID), payload, ["stream"])
            }
            object["email"] = .null
            let fields = redacted ? try erased(f, payload: payload) : []
            return (streams.redactedName(f.streamID), PayloadValue.text(of: object), Array(Set(fields + ["email", "stream"])).sorted())
        }
        let (payload, redacted) = try EventCodec.exported(type: f.eventType, payload: f.payload, keys: keys.key)
        return redacted ? (f.streamID, payload, try erased(f, payload: payload)) : (f.streamID, f.payload, [])
    }

    /// `payload`'s secrets redacted, except a field that is also erased personal data (an erased
    /// member's password hash written before sealing): it stays `null`, so a verified export counts
    /// that event as erased, as `audit verify` does, not as a secret redacted.
    static func redact(type: String, _ payload: String, erased: [String]) -> (payload: String, redacted: [String]) {
        let (redacted, secrets) = Secrets.redact(type: type, payload: payload)
        let both = Set(secrets).intersection(erased)
        guard !both.isEmpty, var object = PayloadValue.object(parsing: redacted) else { return (redacted, secrets) }
        for field in both { object[field] = .null }
        return (PayloadValue.text(of: object), secrets)
    }

    /// The personal fields `payload` (of `f`'s type, redacted) reads `null`.
    private static func erased(_ f: HashChain.Fields, payload: String) throws -> [String] {
        guard let personal = try EventCodec.decode(type: f.eventType, payload: payload).personalData else { return [] }
        let nulled = PayloadValue.object(parsing: payload) ?? [:]
        return personal.fields.filter { nulled[$0] == .null }.sorted()
    }

    /// Verifies an exported log offline: every line parses, every hash is right and links to the
    /// line before, positions and stream versions have no gaps (within the export). Without the
    /// chain key: an export of keyed events verifies only through a library that has the key. An
    /// event whose secrets were redacted links like any other, but its own hash cannot be
    /// recomputed: the report names those events (`redacted secrets`).
    public static func verifyExport(lines: some Sequence<String>) -> [AuditCheck] { verifyExport(lines: lines, chain: .unkeyed) }

    static func verifyExport(lines: some Sequence<String>, chain: ChainHasher) -> [AuditCheck] {
        let decoder = JSONDecoder()
        var previous: ExportedEvent?
        var versions: [StreamName: Int64] = [:]  // keyed by bytes, as the store keeps streams apart
        var count = 0
        var unchecked: [Int64] = []
        var erased: [Int64] = []
        for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let event = try? decoder.decode(ExportedEvent.self, from: Data(line.utf8)) else {
                return [AuditCheck(.export, passed: false, .notAnExportedEvent(line: number + 1))]
            }
            if let previous, event.position != previous.position + 1 || event.previousHash != previous.hash {
                return [AuditCheck(.hashChain, passed: false, .doesNotFollow(position: event.position, previous: previous.position))]
            }
            if let redacted = event.redacted {
                guard Self.isRedaction(event, of: redacted) else {
                    return [AuditCheck(.hashChain, passed: false, .falseRedaction(position: event.position, type: event.type))]
                }
                // Erased when it left out an erased member's data (a field reading null, or the stream's name), as verify counts.
                let payload = PayloadValue.object(parsing: event.payload) ?? [:]
                if redacted.contains(where: { $0 == "stream" || payload[$0] == .null }) {
                    erased.append(event.position)
                } else {
                    unchecked.append(event.position)
                }
            } else if chain.hash(previous: event.previousHash, event.fields) != event.hash {
                return [AuditCheck(.hashChain, passed: false, .exportChainBreaks(position: event.position))]
            }
            if let last = versions[StreamName(event.stream)], event.version != last + 1 {
                return [
                    AuditCheck(
                        .contiguity, passed: false,
                        .exportVersionJumps(stream: event.stream, to: event.version, position: event.position))
                ]
            }
            versions[StreamName(event.stream)] = event.version
            previous = event
            count += 1
        }
        let chained = AuditCheck(.hashChain, passed: true, .exportChained(events: Int64(count), streams: versions.count))
        return [chained] + (unchecked.isEmpty ? [] : [redactedReport(unchecked)]) + (erased.isEmpty ? [] : [erasedReport(erased)])
    }

    /// Whether a line's redaction is one `audit export` makes: its type's secret fields reading the
    /// marker, and an erased member's personal data written before sealing reading `null` (with
    /// their legacy claim stream named by its digest).
    static func isRedaction(_ event: ExportedEvent, of fields: [String]) -> Bool {
        guard !fields.isEmpty, let payload = PayloadValue.object(parsing: event.payload) else { return false }
        let erasedStream = event.stream.hasPrefix("email-erased-")
        var personal = (try? EventCodec.decode(type: event.type, payload: event.payload).personalData?.fields) ?? []
        if erasedStream { personal.insert("email") }
        return fields.allSatisfy { field in
            if field == "stream" { return erasedStream }
            let secret = Secrets.fields(of: event.type).contains(field) && payload[field] == .string(Secrets.marker)
            return secret || (personal.contains(field) && payload[field] == .null)
        }
    }

    /// What verify could not check in an export where erased members' data written before sealing is redacted.
    static func erasedReport(_ positions: [Int64]) -> AuditCheck {
        AuditCheck(.erasedPersonalData, passed: true, .erasedUnchecked(positions: positions))
    }

    /// What verify could not check in an export with its secrets redacted, said precisely.
    static func redactedReport(_ positions: [Int64]) -> AuditCheck {
        AuditCheck(.redactedSecrets, passed: true, .secretsUnchecked(positions: positions))
    }
}

extension LibraryDatabase: LogArchive {
    public func verifyExport(lines: [String]) -> [AuditCheck] { Self.verifyExport(lines: lines, chain: chain) }

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
    /// (`null` once erased), in the same read transaction as the row.
    static func loggedEvent(_ row: Row, _ keys: PersonalKeys.Reader) throws -> LoggedEvent {
        let type: String = row["event_type"]
        let payload = try EventCodec.readable(type: type, payload: row["payload"], cipher: keys.cipher, keys: keys.key)
        return LoggedEvent(
            position: row["position"], version: row["stream_version"], type: type, recordedAt: row["recorded_at"],
            actor: row["actor"], payload: payload, correlationID: row["correlation_id"])
    }
}
