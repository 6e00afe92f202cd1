import Application
import Foundation
import GRDB

/// One stored event as `audit export` writes it: the stored columns verbatim (the payload as the
/// stored JSON text, so the canonical encoding can be recomputed), with its hash and the previous one.
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

    var fields: HashChain.Fields {
        HashChain.Fields(
            position: position, streamID: stream, streamVersion: version, eventType: type, payload: payload, eventID: eventId,
            recordedAt: recordedAt, actor: actor, correlationID: correlationId, causationID: causationId)
    }
}

extension LibraryDatabase {
    /// Writes the log from `position` on as JSON lines to `write`, in order; returns the number written.
    public func export(from position: Int64 = 1, to write: (String) throws -> Void) async throws -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var after = max(0, position - 1)
        var previous = try await scans.read { [after] db in
            try String.fetchOne(db, sql: "SELECT hash FROM events WHERE position = ?", arguments: [after]) ?? HashChain.genesis
        }
        var count: Int64 = 0
        while true {
            let rows = try await scans.read { [after] db in
                try Row.fetchAll(db, sql: "SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 5000", arguments: [after])
                    .map { (HashChain.Fields($0), ($0["hash"] as String?) ?? "") }
            }
            guard !rows.isEmpty else { return count }
            for (f, hash) in rows {
                let line = ExportedEvent(
                    position: f.position, stream: f.streamID, version: f.streamVersion, type: f.eventType, payload: f.payload,
                    eventId: f.eventID, recordedAt: f.recordedAt, actor: f.actor, correlationId: f.correlationID,
                    causationId: f.causationID, previousHash: previous, hash: hash)
                try write(String(decoding: try encoder.encode(line), as: UTF8.self))
                previous = hash
                after = f.position
                count += 1
            }
        }
    }

    /// Verifies an exported log offline: every line parses, every hash is right and links to the
    /// line before, positions and stream versions have no gaps (within the export). Without the
    /// chain key: an export of keyed events verifies only through a library that has the key.
    public static func verifyExport(lines: some Sequence<String>) -> [AuditCheck] { verifyExport(lines: lines, chain: .unkeyed) }

    static func verifyExport(lines: some Sequence<String>, chain: ChainHasher) -> [AuditCheck] {
        let decoder = JSONDecoder()
        var previous: ExportedEvent?
        var versions: [StreamName: Int64] = [:]  // keyed by bytes, as the store keeps streams apart
        var count = 0
        for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let event = try? decoder.decode(ExportedEvent.self, from: Data(line.utf8)) else {
                return [AuditCheck(name: "export", passed: false, detail: "line \(number + 1) is not an exported event")]
            }
            if let previous, event.position != previous.position + 1 || event.previousHash != previous.hash {
                return [
                    AuditCheck(
                        name: "hash chain", passed: false,
                        detail: "position \(event.position) does not follow position \(previous.position)")
                ]
            }
            if chain.hash(previous: event.previousHash, event.fields) != event.hash {
                return [AuditCheck(name: "hash chain", passed: false, detail: "the chain breaks at position \(event.position)")]
            }
            if let last = versions[StreamName(event.stream)], event.version != last + 1 {
                return [
                    AuditCheck(
                        name: "contiguity", passed: false,
                        detail: "stream \(event.stream) jumps to version \(event.version) at position \(event.position)")
                ]
            }
            versions[StreamName(event.stream)] = event.version
            previous = event
            count += 1
        }
        return [
            AuditCheck(name: "hash chain", passed: true, detail: "\(count) exported events chained, \(versions.count) streams without gaps")
        ]
    }
}

extension LibraryDatabase: LogArchive {
    public func verifyExport(lines: [String]) -> [AuditCheck] { Self.verifyExport(lines: lines, chain: chain) }

    public func history(_ stream: StreamName, page: PageRequest) async throws -> Page<HistoryEntry> {
        try await scans.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events WHERE stream_id = ?", arguments: [stream.rawValue]) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM events WHERE stream_id = ? ORDER BY stream_version LIMIT ? OFFSET ?",
                arguments: [stream.rawValue, page.limit, page.offset])
            let items = rows.map {
                HistoryEntry(
                    position: $0["position"], version: $0["stream_version"], type: $0["event_type"],
                    recordedAt: $0["recorded_at"], actor: $0["actor"], payload: $0["payload"])
            }
            return Page(items: items, total: total, of: page)
        }
    }
}
