import Application
import Domain
import Foundation

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

    public init(
        position: Int64, stream: String, version: Int64, type: String, payload: String, eventId: String, recordedAt: String,
        actor: String, correlationId: String, causationId: String?, previousHash: String, hash: String, redacted: [String]?
    ) {
        self.position = position
        self.stream = stream
        self.version = version
        self.type = type
        self.payload = payload
        self.eventId = eventId
        self.recordedAt = recordedAt
        self.actor = actor
        self.correlationId = correlationId
        self.causationId = causationId
        self.previousHash = previousHash
        self.hash = hash
        self.redacted = redacted
    }

    /// The stored columns it carries.
    public var fields: HashChain.Fields {
        HashChain.Fields(
            position: position, streamID: stream, streamVersion: version, eventType: type, payload: payload, eventID: eventId,
            recordedAt: recordedAt, actor: actor, correlationID: correlationId, causationID: causationId)
    }
}

/// `audit export`'s lines, for every store: what an export carries of each event, and the
/// offline verification of an export.
public enum LogExportFormat {
    /// An event as an export carries it: sealed personal data stays sealed; personal data in clear
    /// (written before sealing) of a member since erased reads `null`, and a legacy claim stream
    /// named by their address is named by its digest; `fields` lists what was redacted so. A
    /// payload that cannot be read back (changed outside Shelfmark) stops the export, named as an
    /// `UnreadableEvent`: what it holds, secrets included, cannot be told.
    public static func erased(
        _ f: HashChain.Fields, keys: (UserID) throws -> SubjectKey, isErasedStream: (String) throws -> Bool,
        redactedName: (String) -> String
    ) throws -> (stream: String, payload: String, fields: [String]) {
        do {
            return try exported(f, keys: keys, isErasedStream: isErasedStream, redactedName: redactedName)
        } catch is DecodingError {
            throw UnreadableEvent(position: f.position, type: f.eventType, part: .payload)
        } catch is EventCodec.UnknownEventType {
            throw UnreadableEvent(position: f.position, type: f.eventType, part: .unknownType)
        }
    }

    private static func exported(
        _ f: HashChain.Fields, keys: (UserID) throws -> SubjectKey, isErasedStream: (String) throws -> Bool,
        redactedName: (String) -> String
    ) throws -> (stream: String, payload: String, fields: [String]) {
        if try isErasedStream(f.streamID) {
            // Its events hold the address in clear (sealed ones, written since, stay sealed).
            let (payload, redacted) = try EventCodec.exported(type: f.eventType, payload: f.payload) { _ in .erased }
            guard var object = PayloadValue.object(parsing: payload), object["email"] != nil else {
                return (redactedName(f.streamID), payload, ["stream"])
            }
            object["email"] = .null
            let fields = redacted ? try erased(f, payload: payload) : []
            return (redactedName(f.streamID), PayloadValue.text(of: object), Array(Set(fields + ["email", "stream"])).sorted())
        }
        let (payload, redacted) = try EventCodec.exported(type: f.eventType, payload: f.payload, keys: keys)
        return redacted ? (f.streamID, payload, try erased(f, payload: payload)) : (f.streamID, f.payload, [])
    }

    /// `payload`'s secrets redacted, except a field that is also erased personal data (an erased
    /// member's password hash written before sealing): it stays `null`, so a verified export counts
    /// that event as erased, as `audit verify` does, not as a secret redacted.
    public static func redact(type: String, _ payload: String, erased: [String]) -> (payload: String, redacted: [String]) {
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
    public static func verifyExport(lines: some Sequence<String>, chain: ChainHasher) -> [AuditCheck] {
        let decoder = JSONDecoder()
        var previous: ExportedEvent?
        var versions: [StreamName: Int64] = [:]  // keyed by bytes, as the store keeps streams apart
        var count = 0
        var unchecked: [Int64] = []
        var erased: [Int64] = []
        for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            // A line naming a field twice is none: the decoder keeps one copy and `jq` another, so a
            // forged second payload read as verified (found by an outside walk).
            guard DuplicateKeys.first(in: Array(line.utf8)) == nil,
                let event = try? decoder.decode(ExportedEvent.self, from: Data(line.utf8))
            else {
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

    /// Writes exported events one after the other, each linked to the one before.
    public struct Writer {
        private let secrets: ExportedSecrets
        private let encoder: JSONEncoder
        /// The hash of the last event written (of the event before the first, at first).
        public private(set) var previous: String
        /// How many were written.
        public private(set) var count: Int64 = 0

        public init(secrets: ExportedSecrets, previous: String) {
            self.secrets = secrets
            self.previous = previous
            encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        }

        /// Writes one stored event, `erased` what `LogExportFormat.erased` made of it.
        public mutating func write(
            _ f: HashChain.Fields, hash: String, erased: (stream: String, payload: String, fields: [String]),
            to write: (String) throws -> Void
        ) throws {
            // Erased members' personal data is never exported, backups included; secrets only to the operator's.
            let (payload, secret) =
                secrets == .included
                ? (erased.payload, []) : LogExportFormat.redact(type: f.eventType, erased.payload, erased: erased.fields)
            let redacted = Array(Set(secret + erased.fields)).sorted()
            let line = ExportedEvent(
                position: f.position, stream: erased.stream, version: f.streamVersion, type: f.eventType, payload: payload,
                eventId: f.eventID, recordedAt: f.recordedAt, actor: f.actor, correlationId: f.correlationID,
                causationId: f.causationID, previousHash: previous, hash: hash, redacted: redacted.isEmpty ? nil : redacted)
            try write(String(decoding: try encoder.encode(line), as: UTF8.self))
            previous = hash
            count += 1
        }
    }
}
