import Crypto
import Foundation

/// The log's tamper evidence: each event's `hash` is SHA-256 over the previous event's hash and
/// this event's canonical encoding (see ARCHITECTURE.md, "Hash chain"), so changing, removing or
/// reordering any stored event breaks the chain from there on. From the chain key's first
/// position on, the same text is HMAC-SHA-256'd with the key instead (`ChainHasher`), so only
/// whoever holds the key file can compute a chain that verifies.
public enum HashChain {
    /// The "previous hash" of the first event.
    public static let genesis = String(repeating: "0", count: 64)

    /// The stored columns of one event, as text, in canonical order.
    public struct Fields: Equatable, Sendable {
        public let position: Int64
        public let streamID: String
        public let streamVersion: Int64
        public let eventType: String
        public let payload: String
        public let eventID: String
        public let recordedAt: String
        public let actor: String
        public let correlationID: String
        public let causationID: String?

        public init(
            position: Int64, streamID: String, streamVersion: Int64, eventType: String, payload: String, eventID: String,
            recordedAt: String, actor: String, correlationID: String, causationID: String?
        ) {
            self.position = position
            self.streamID = streamID
            self.streamVersion = streamVersion
            self.eventType = eventType
            self.payload = payload
            self.eventID = eventID
            self.recordedAt = recordedAt
            self.actor = actor
            self.correlationID = correlationID
            self.causationID = causationID
        }

        /// The canonical encoding: the fields as UTF-8 text, each followed by a line feed
        /// (a missing causation id is the empty string).
        public var canonical: String {
            var bytes: [UInt8] = []
            appendCanonical(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// What the chain hashes for this event: `previous`, a line feed, and the canonical
        /// encoding, as UTF-8 bytes built in one buffer (no string per field: the writer does this
        /// for every event it appends).
        func chained(to previous: String) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(previous.utf8.count + streamID.utf8.count + payload.utf8.count + actor.utf8.count + 200)
            bytes += previous.utf8
            bytes.append(0x0A)
            appendCanonical(to: &bytes)
            return bytes
        }

        private func appendCanonical(to bytes: inout [UInt8]) {
            Self.append(String(position), to: &bytes)
            Self.append(streamID, to: &bytes)
            Self.append(String(streamVersion), to: &bytes)
            Self.append(eventType, to: &bytes)
            Self.append(payload, to: &bytes)
            Self.append(eventID, to: &bytes)
            Self.append(recordedAt, to: &bytes)
            Self.append(actor, to: &bytes)
            Self.append(correlationID, to: &bytes)
            Self.append(causationID ?? "", to: &bytes)
        }

        private static func append(_ field: String, to bytes: inout [UInt8]) {
            bytes += field.utf8
            bytes.append(0x0A)
        }
    }

    /// SHA-256 (lower-case hex) of the previous hash, a line feed, and the canonical encoding: the
    /// unkeyed formula, for events written before the log was keyed.
    public static func hash(previous: String, _ fields: Fields) -> String {
        digest(fields.chained(to: previous))
    }

    /// Lower-case hex SHA-256 of a text's UTF-8 bytes: the writer's per-event cost (the benchmark measures it).
    public static func digest(_ text: String) -> String {
        digest(Array(text.utf8))
    }

    static func digest(_ bytes: [UInt8]) -> String {
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
