import Application
import Foundation

/// One event as a store keeps it: its stored columns and hash, verbatim (a copy keeps the chain
/// as it is), and the event they hold, read by the source with its members' keys.
public struct StoredEvent: Sendable {
    public let fields: HashChain.Fields
    /// Nil only for an event a log holds without one (none since the hash chain's migration).
    public let hash: String?
    public let recorded: RecordedEvent
    public init(fields: HashChain.Fields, hash: String?, recorded: RecordedEvent) {
        self.fields = fields
        self.hash = hash
        self.recorded = recorded
    }
}

/// What a library keeps outside its log so the log reads, names and verifies as it does: its
/// members' keys, its erased members (and their legacy claim streams' digests), the secret
/// naming claim streams, and the chain key's file.
public struct LibrarySecrets: Sendable {
    public var personalKeys: [(subject: String, key: Data)]
    public var erasedMembers: [(subject: String, position: Int64)]
    public var erasedStreams: [String]
    /// The stored secret naming claim streams (nil: derived from the chain key).
    public var claimSecret: Data?
    public var chainKey: ChainKey?
    public init(
        personalKeys: [(subject: String, key: Data)], erasedMembers: [(subject: String, position: Int64)], erasedStreams: [String],
        claimSecret: Data?, chainKey: ChainKey?
    ) {
        self.personalKeys = personalKeys
        self.erasedMembers = erasedMembers
        self.erasedStreams = erasedStreams
        self.claimSecret = claimSecret
        self.chainKey = chainKey
    }
}

/// A store a log can be copied from, verbatim.
public protocol LogCopySource: Sendable {
    /// The last position `until` includes.
    func lastPosition(_ until: ReplayLimit) async throws -> Int64
    /// Up to `limit` events after `position` and up to `last`, in log order.
    func storedEvents(after position: Int64, through last: Int64, limit: Int) async throws -> [StoredEvent]
    /// The library's secrets outside the log.
    func secrets() async throws -> LibrarySecrets
}

/// A new, empty store a log can be copied into, verbatim, its read models built as it goes.
public protocol LogCopyTarget: Sendable {
    /// Takes the source's secrets (before any event), the chain key's file copied to `keyFile`.
    func adopt(_ secrets: LibrarySecrets, keyFile: String?) async throws
    /// Appends the events as they are (the next positions, hashes kept) and projects them, in one transaction.
    func insert(_ events: [StoredEvent]) async throws
    /// The newest position, 0 when empty.
    func copiedHead() async throws -> Int64
}

/// A log copied from one store into another.
public enum LogCopy {
    /// Copies the log up to `until`, 5,000 events a transaction, reporting (done, total); when
    /// `carryingSecrets`, the library's keys and secrets first, its chain key's file copied to
    /// `keyFile` (a copy that reads and verifies as the source; without, a scratch copy whose
    /// read models hold what the source read). Returns the last position copied. Refuses a target
    /// that already holds events.
    public static func copy(
        from source: any LogCopySource, to target: any LogCopyTarget, until: ReplayLimit = .end, carryingSecrets: Bool,
        keyFile: String? = nil, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> Int64 {
        guard try await target.copiedHead() == 0 else { throw LogCopyTargetNotEmpty() }
        if carryingSecrets { try await target.adopt(try await source.secrets(), keyFile: keyFile) }
        let last = try await source.lastPosition(until)
        var after: Int64 = 0
        while after < last {
            let events = try await source.storedEvents(after: after, through: last, limit: 5_000)
            guard let tail = events.last else { break }
            try await target.insert(events)
            after = tail.fields.position
            progress(after, last)
        }
        return after
    }
}

/// The store a log was to be copied into already holds events; nothing was copied.
public struct LogCopyTargetNotEmpty: Error, Equatable, Sendable {
    public init() {}
}
