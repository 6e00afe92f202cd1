import Foundation

/// Answers whether storage is reachable.
public protocol HealthCheck: Sendable {
    /// The position of the newest event in the log; throws when storage does not answer.
    func headPosition() async throws -> Int64
}

/// Rebuilds read models from the log.
public protocol ReadModelRebuilder: Sendable {
    /// Replays the whole log into fresh read models and switches to them; reports (done, total) as it goes.
    /// Returns the number of events replayed.
    func rebuild(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64
}

/// The outcome of one verification check.
public struct AuditCheck: Equatable, Sendable, Codable {
    public let name: String
    public let passed: Bool
    /// What was found: counts when it passed, the first failure when not.
    public let detail: String
    public init(name: String, passed: Bool, detail: String) {
        self.name = name
        self.passed = passed
        self.detail = detail
    }
}

/// Proves the log was not altered, or names what breaks.
public protocol LogVerifier: Sendable {
    /// Runs every check (hash chain, contiguity, append-only triggers, replay equals live read
    /// models); reports (done, total) events as it goes.
    func verify(progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> [AuditCheck]
}

/// The log in a portable form, for outside tools.
public protocol LogArchive: Sendable {
    /// Writes the log from `position` on, one JSON line per event (with hashes); returns how many.
    func export(from position: Int64, to write: (String) throws -> Void) async throws -> Int64
    /// Verifies an exported log offline: hashes, links and gaps.
    func verifyExport(lines: [String]) -> [AuditCheck]
    /// Every event of one stream, oldest first, as stored (type name, time, actor, payload).
    func history(_ stream: StreamName) async throws -> [HistoryEntry]
}

/// One stored event, for people and outside tools.
public struct HistoryEntry: Equatable, Sendable, Codable {
    public let position: Int64
    public let version: Int64
    public let type: String
    public let recordedAt: String
    public let actor: String
    /// The stored JSON payload.
    public let payload: String
    public init(position: Int64, version: Int64, type: String, recordedAt: String, actor: String, payload: String) {
        self.position = position
        self.version = version
        self.type = type
        self.recordedAt = recordedAt
        self.actor = actor
        self.payload = payload
    }
}

/// Where a replay stops.
public enum ReplayLimit: Equatable, Sendable {
    case end
    /// Up to and including this global position.
    case position(Int64)
    /// Events recorded at or before this instant.
    case time(Date)
}

/// The read models as they were at a past point of the log.
public struct LibrarySnapshot: Sendable {
    public let catalogue: any Catalogue
    public let loans: any LoanRegister
    public let notices: any NoticeBoard
    public let accounts: any Accounts
    /// The number of events the snapshot was built from.
    public let events: Int64
    public init(catalogue: any Catalogue, loans: any LoanRegister, notices: any NoticeBoard, accounts: any Accounts, events: Int64) {
        self.catalogue = catalogue
        self.loans = loans
        self.notices = notices
        self.accounts = accounts
        self.events = events
    }
}

/// Rebuilds read models from a prefix of the log into another database.
public protocol LogReplayer: Sendable {
    /// Copies the log up to `until` into a new library database at `path` and builds its read models there.
    func replay(into path: String, until: ReplayLimit, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64
    /// Runs `body` on the read models as of `until`, built in a scratch database removed afterwards.
    func withSnapshot<T: Sendable>(until: ReplayLimit, _ body: (LibrarySnapshot) async throws -> T) async throws -> T
}
