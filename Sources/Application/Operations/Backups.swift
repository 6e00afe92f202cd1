import Foundation

/// Backs up the open library while it keeps serving: librarians, the operator and `serve`'s schedule.
public struct BackUpLibrary: Sendable {
    let backup: any LibraryBackup
    /// The data folder's anchor file, copied beside the backup so the copy verifies its anchors too.
    let anchorFile: String?

    public init(backup: any LibraryBackup, anchorFile: String?) {
        self.backup = backup
        self.anchorFile = anchorFile
    }

    /// What `execute`'s progress counts.
    public var progressUnit: BackupProgressUnit { backup.progressUnit }

    /// Refuses (`BackupProblem.libraryFile`) a file a command would write that is one of the
    /// library's own (`LibraryBackup.isOwnFile`): an export, a backup, a card drawn to a file.
    public func refuseOwnFile(_ path: String) throws {
        if backup.isOwnFile(path) { throw BackupRefused(.libraryFile(path)) }
    }

    /// Writes a consistent copy to `file` (and its key and anchors beside it); an existing file is
    /// replaced only when `replacing`.
    public func execute(
        to file: String, replacing: Bool = false, by principal: Principal,
        progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) async throws -> BackupReport {
        try Authorization.require(.backUpLibrary, by: principal)
        guard !file.isEmpty else { throw InvalidInput("to", .required) }
        return try await backup.backUp(to: file, anchors: anchorFile, replacing: replacing, progress: progress)
    }
}

/// What a restore did.
public struct RestoreReport: Equatable, Sendable {
    public let backup: String
    public let target: String
    public let restored: LibrarySummary
    /// The library that was at the target, kept aside; nil when there was none.
    public let replaced: ReplacedLibrary?

    public init(backup: String, target: String, restored: LibrarySummary, replaced: ReplacedLibrary?) {
        self.backup = backup
        self.target = target
        self.restored = restored
        self.replaced = replaced
    }
}

/// Puts a backup in place of the library, only once it verifies, never over a library a process
/// has open, and keeping what it replaces. The operator's alone: it runs on files, with no library
/// open to ask who the caller is.
public struct RestoreLibrary: Sendable {
    let restorer: any LibraryRestorer
    let clock: any WallClock

    public init(restorer: any LibraryRestorer, clock: any WallClock) {
        self.restorer = restorer
        self.clock = clock
    }

    /// Verifies a staged copy of `backup`, then swaps it in; refuses (`BackupRefused`) a backup
    /// that fails any check, naming the first that fails, and leaves the library untouched.
    public func execute(from backup: String, progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws
        -> RestoreReport
    {
        let staged = try await restorer.stage(backup, progress: progress)
        if let failed = staged.checks.first(where: { !$0.passed }) {
            restorer.discard(staged)
            throw BackupRefused(.doesNotVerify(backup, failed: failed))
        }
        do {
            let replaced = try restorer.replace(with: staged, stamp: BackupRotation.stamp(clock.now()))
            return RestoreReport(backup: backup, target: restorer.target, restored: staged.summary, replaced: replaced)
        } catch {
            restorer.discard(staged)
            throw error
        }
    }
}

/// Why a backup or a restore was refused.
public enum BackupProblem: Equatable, Sendable {
    /// The file to write exists already (`--force` replaces it).
    case fileExists(String)
    /// The backup would be written over the library itself, or restored onto itself.
    case sameAsLibrary(String)
    /// The file to write is one the library keeps beside its database (its chain key, its lock,
    /// SQLite's WAL, its anchors): writing it would lose the library or its proof.
    case libraryFile(String)
    /// There is no backup at this path.
    case backupMissing(String)
    /// The file is not a Shelfmark library (not SQLite, or no event log in it).
    case notALibrary(String)
    /// The backup's log is keyed and the chain key file that belongs beside it is missing.
    case backupKeyMissing(String, key: String, keyedFrom: Int64)
    /// The backup cannot be opened with the chain key beside it.
    case keyUnusable(String, IntegrityProblem)
    /// The backup fails a check of `audit verify`: the first that fails, with what it found.
    case doesNotVerify(String, failed: AuditCheck)
    /// A process (a running server, a command) has the library open.
    case libraryInUse(String)
    /// The library's lock file cannot be opened or created.
    case lockUnusable(String)
}

/// A backup or a restore refused; nothing was written over.
public struct BackupRefused: MessageConvertible, Equatable, Sendable {
    public let problem: BackupProblem
    public init(_ problem: BackupProblem) { self.problem = problem }
    public var message: Message { .backup(problem) }
}
