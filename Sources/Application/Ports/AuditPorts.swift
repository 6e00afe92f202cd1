import Foundation

/// The outcome of one verification check: which check, whether it passed, and what it found, as
/// values the adapters word in the reader's language.
public struct AuditCheck: Equatable, Sendable {
    public let kind: Kind
    public let passed: Bool
    /// What was found: counts when it passed, the first failure when not.
    public let finding: AuditFinding
    public init(_ kind: Kind, passed: Bool, _ finding: AuditFinding) {
        self.kind = kind
        self.passed = passed
        self.finding = finding
    }

    /// The checks verify runs; the raw value is the check's stable identifier (the API's `name`).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case chainKey = "chain key"
        case hashChain = "hash chain"
        case contiguity
        case appendOnlyTriggers = "append-only triggers"
        case replay
        case personalData = "personal data"
        case anchors
        /// An exported log that cannot be read.
        case export
        /// An export's events whose secrets are redacted.
        case redactedSecrets = "redacted secrets"
        /// An export's events of erased members written before sealing.
        case erasedPersonalData = "erased personal data"
        /// The database file's own structure: its pages and indexes (SQLite's integrity check).
        case databaseFile = "database file"
    }
}

/// Proves the log was not altered, or names what breaks.
public protocol LogVerifier: Sendable {
    /// Runs every check (chain key, hash chain, contiguity, append-only triggers, replay equals
    /// live read models, and the anchors `anchors` names) on one snapshot; reports (done, total) events as it goes.
    func verify(anchors: AnchorSource, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> [AuditCheck]
    /// Appends a signed checkpoint of the log's head, taken at `time`, to the anchor file at `path`.
    func anchor(to path: String, at time: Date) async throws -> LogAnchor
}

/// The signed checkpoints verify proves the log still contains.
public enum AnchorSource: Sendable, Equatable {
    /// No anchors.
    case none
    /// The anchor file at this path, which must exist (`audit verify --anchor FILE`).
    case file(String)
    /// The anchor file at this path when there is one (the data folder's).
    case ifPresent(String)
}

/// One signed checkpoint: the log's head at a moment.
public struct LogAnchor: Equatable, Sendable, Codable {
    public let position: Int64
    /// The hash of the event at `position` (64 zeros for an empty log).
    public let hash: String
    /// When it was taken, ISO 8601 UTC.
    public let time: String
    public init(position: Int64, hash: String, time: String) {
        self.position = position
        self.hash = hash
        self.time = time
    }
}

/// The log in a portable form, for outside tools.
public protocol LogArchive: Sendable {
    /// Writes the log from `position` on, one JSON line per event (with hashes), its secrets
    /// redacted or kept as `secrets` says; returns how many.
    func export(from position: Int64, secrets: ExportedSecrets, to write: (String) throws -> Void) async throws -> Int64
    /// Verifies an exported log offline: hashes, links and gaps.
    func verifyExport(lines: [String]) -> [AuditCheck]
    /// One page of the events of one stream, oldest first, as stored (type name, time, actor, payload).
    func history(_ stream: StreamName, page: PageRequest) async throws -> Page<LoggedEvent>
    /// The events of one stream before `version`, oldest first: what a page of its history follows.
    func events(_ stream: StreamName, before version: Int64) async throws -> [LoggedEvent]
}

/// Whether an export keeps the secrets (password hashes, reset-code and session-token digests).
public enum ExportedSecrets: Sendable, Equatable {
    /// Each secret field reads `Secrets.marker`, and the line lists the fields redacted: the
    /// export is safe to hand out, and verifying it cannot recompute those events' hashes.
    case redacted
    /// Every payload as stored, for backups (the operator only).
    case included
}

/// One stored event of a stream, as the log holds it.
public struct LoggedEvent: Equatable, Sendable {
    public let position: Int64
    public let version: Int64
    public let type: String
    public let recordedAt: String
    /// As the log records it: `operator`, `system`, `anonymous` or `user:<id>`.
    public let actor: String
    /// The stored JSON payload.
    public let payload: String
    /// The id shared by the events of one command: the request's `X-Request-ID` when a request recorded it.
    public let correlationID: String
    public init(
        position: Int64, version: Int64, type: String, recordedAt: String, actor: String, payload: String, correlationID: String
    ) {
        self.position = position
        self.version = version
        self.type = type
        self.recordedAt = recordedAt
        self.actor = actor
        self.payload = payload
        self.correlationID = correlationID
    }
}

/// One event of a stream's history, for people: who did it, what it changed, and its payload
/// with the secrets redacted.
public struct HistoryEntry: Equatable, Sendable {
    public let position: Int64
    public let version: Int64
    public let type: String
    public let recordedAt: String
    /// As the log records it: `operator`, `system`, `anonymous` or `user:<id>`.
    public let actor: String
    /// Who that is now.
    public let actorName: ActorName
    /// The payload, each secret field reading `Secrets.marker`.
    public let payload: [String: PayloadValue]
    /// The fields it set or changed, against the stream's events before it.
    public let changes: [FieldChange]
    /// The id shared by the events of one command (the request's id, when a request recorded it).
    public let correlationID: String
    public init(
        _ event: LoggedEvent, actorName: ActorName, payload: [String: PayloadValue], changes: [FieldChange]
    ) {
        self.correlationID = event.correlationID
        self.position = event.position
        self.version = event.version
        self.type = event.type
        self.recordedAt = event.recordedAt
        self.actor = event.actor
        self.actorName = actorName
        self.payload = payload
        self.changes = changes
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
    public let holds: any HoldRegister
    /// The number of events the snapshot was built from.
    public let events: Int64
    public init(
        catalogue: any Catalogue, loans: any LoanRegister, notices: any NoticeBoard, accounts: any Accounts, holds: any HoldRegister,
        events: Int64
    ) {
        self.catalogue = catalogue
        self.loans = loans
        self.notices = notices
        self.accounts = accounts
        self.holds = holds
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
