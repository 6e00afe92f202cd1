import Foundation

/// What a library file holds, as a backup or a restore reports it: how many events, and the
/// head's hash (nil for an empty log).
public struct LibrarySummary: Equatable, Sendable {
    public let events: Int64
    public let headHash: String?
    public init(events: Int64, headHash: String?) {
        self.events = events
        self.headHash = headHash
    }
}

/// A backup written: where, what it holds, and the files beside it.
public struct BackupReport: Equatable, Sendable {
    public let file: String
    public let summary: LibrarySummary
    /// The copy of the chain key (`<file>.key`); nil when the log has no key.
    public let keyFile: String?
    /// The copy of the data folder's anchors (`<file>.anchors`); nil when there were none.
    public let anchorFile: String?
    public init(file: String, summary: LibrarySummary, keyFile: String?, anchorFile: String?) {
        self.file = file
        self.summary = summary
        self.keyFile = keyFile
        self.anchorFile = anchorFile
    }
}

/// Takes consistent copies of the open library while it keeps serving and writing.
public protocol LibraryBackup: Sendable {
    /// Copies the library as of one moment to `file`, its chain key to `<file>.key` and the anchor
    /// file `anchors` (when there is one) to `<file>.anchors`, all under temporary names renamed
    /// into place at the end; refuses files that exist unless `replacing`. Reports (done, total)
    /// in `progressUnit`.
    func backUp(to file: String, anchors: String?, replacing: Bool, progress: @escaping @Sendable (Int64, Int64) -> Void)
        async throws -> BackupReport
    /// What a backup's progress counts: the database's pages, or the log's events.
    var progressUnit: BackupProgressUnit { get }
    /// Whether `path` names one of the files the library keeps on this machine (its database, the
    /// files SQLite keeps beside it, its chain key, lock and anchors), existing or not yet.
    func isOwnFile(_ path: String) -> Bool
}

/// What a backup's progress counts.
public enum BackupProgressUnit: Sendable {
    /// Pages of the database file, copied as they are (SQLite's online backup).
    case pages
    /// Events of the log, copied one after another into a new file (a PostgreSQL library's backup).
    case events
}

/// A backup copied beside the library it will replace, opened there and verified.
public struct StagedRestore: Sendable {
    public let backup: String
    /// The staged copy's path (its key and anchors beside it, as `<path>.key`, `<path>.anchors`).
    public let path: String
    /// Every check `audit verify` runs, on the staged copy.
    public let checks: [AuditCheck]
    public let summary: LibrarySummary
    public init(backup: String, path: String, checks: [AuditCheck], summary: LibrarySummary) {
        self.backup = backup
        self.path = path
        self.checks = checks
        self.summary = summary
    }
}

/// The library a restore replaced, kept aside rather than deleted.
public struct ReplacedLibrary: Equatable, Sendable {
    /// Where its database now is (its key and anchors beside it as `<keptAs>.key`, `<keptAs>.anchors`).
    public let keptAs: String
    /// What it held; nil when it could not be read as a library.
    public let summary: LibrarySummary?
    public init(keptAs: String, summary: LibrarySummary?) {
        self.keptAs = keptAs
        self.summary = summary
    }
}

/// Puts a verified backup in place of a library that no process has open.
public protocol LibraryRestorer: Sendable {
    /// The library restored into.
    var target: String { get }
    /// Copies `backup` (with `<backup>.key` and `<backup>.anchors`) beside the target, opens the
    /// copy and runs every check of `audit verify` on it; refuses a file that is no library.
    func stage(_ backup: String, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> StagedRestore
    /// While no process has the target open (else `BackupRefused(.libraryInUse)`), moves its files
    /// aside under names ending in `.replaced-<stamp>` and the staged copy into their place.
    func replace(with staged: StagedRestore, stamp: String) throws -> ReplacedLibrary?
    /// Removes a staged copy that will not be used.
    func discard(_ staged: StagedRestore)
}
