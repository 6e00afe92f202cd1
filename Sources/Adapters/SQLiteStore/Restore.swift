import Application
import Foundation
import GRDB
import LogChain

/// `shelfmark restore`: the backup is copied beside the library (same folder, so the last step is
/// a rename), opened and verified there; then, holding the library's lock exclusively (no process
/// has it open), the library's files are moved aside and the copy's renamed into place.
public struct SQLiteRestorer: LibraryRestorer {
    public let target: String
    /// The target's chain key file and anchor file, where the backup's go.
    let keyFile: String
    let anchorFile: String
    /// The cryptography the staged copy is opened (and verified) with: the library's own.
    let cipher: any PersonalCipher

    public init(target: String, keyFile: String, anchorFile: String, cipher: any PersonalCipher) {
        self.target = target
        self.keyFile = keyFile
        self.anchorFile = anchorFile
        self.cipher = cipher
    }

    public func stage(_ backup: String, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> StagedRestore {
        guard LibraryFiles.exists(backup) else { throw BackupRefused(.backupMissing(backup)) }
        guard !LibraryFiles.same(backup, target) else { throw BackupRefused(.sameAsLibrary(backup)) }
        // A folder, pipe or link to nothing beside the backup is no part of one (an outside walk: a
        // pipe at its `.anchors` was an internal error).
        if let odd = LibraryFiles.companionThatIsNoFile(of: backup, keyFile: backup + ".key") {
            throw InvalidInput("from", .fileUnusable(odd))
        }
        try FileManager.default.createDirectory(atPath: LibraryFiles.folder(of: target), withIntermediateDirectories: true)
        let staged = target + ".restoring-\(UUID().uuidString)"
        do {
            let keyed = try Self.copyDatabase(backup, to: staged)
            if LibraryFiles.exists(backup + ".key") {
                guard let key = try? ChainKey.load(backup + ".key") else {
                    throw BackupRefused(.keyUnusable(backup, .notAKeyFile(path: backup + ".key")))
                }
                _ = try key.copy(to: staged + ".key")
            } else if let keyedFrom = keyed {
                throw BackupRefused(.backupKeyMissing(backup, key: backup + ".key", keyedFrom: keyedFrom))
            }
            if LibraryFiles.exists(backup + ".anchors") { try LibraryFiles.copy(backup + ".anchors", to: staged + ".anchors", mode: 0o644) }
            let library: LibraryDatabase
            do {
                library = try LibraryDatabase(path: staged, durability: .full, keyFile: staged + ".key", cipher: cipher)
            } catch let error as ChainKeyError {
                throw BackupRefused(.keyUnusable(backup, error.problem))
            }
            let checks = try await library.verify(anchors: .ifPresent(staged + ".anchors"), progress: progress)
            let summary = try await library.pool.read(LibraryFiles.summary)
            try library.close()
            try Self.tidy(staged)
            return StagedRestore(backup: backup, path: staged, checks: checks, summary: summary)
        } catch {
            LibraryFiles.removeAll(staged)
            throw error
        }
    }

    /// Copies the backup's database through SQLite (its own WAL, if it has one, comes along);
    /// the first position its log is keyed from, if it is. Refuses a file that is no library.
    private static func copyDatabase(_ backup: String, to staged: String) throws -> Int64? {
        do {
            let source = try DatabaseQueue(path: backup)
            defer { try? source.close() }
            let keyedFrom = try source.read { db -> Int64?? in
                guard try db.tableExists("events") else { return .none }
                return .some(try db.tableExists("chain_key") ? ChainKeyRecord.fetch(db)?.keyedFrom : nil)
            }
            guard let keyedFrom else { throw BackupRefused(.notALibrary(backup)) }
            let copy = try DatabaseQueue(path: staged)
            try source.backup(to: copy)
            try copy.close()
            return keyedFrom
        } catch is DatabaseError {
            throw BackupRefused(.notALibrary(backup))
        }
    }

    public func replace(with staged: StagedRestore, stamp: String) throws -> ReplacedLibrary? {
        guard let lock = try LibraryLock.exclusive(target) else { throw BackupRefused(.libraryInUse(target)) }
        defer { lock.release() }
        var replaced: ReplacedLibrary?
        if LibraryFiles.exists(target) {
            let aside = Self.freeName(target + ".replaced-" + stamp)
            let summary = Self.settle(target)
            for suffix in ["", "-wal", "-shm"] { try LibraryFiles.moveIfPresent(target + suffix, to: aside + suffix) }
            // Its key is copied (the restored library may use the same one), its anchors moved: both beside it.
            if LibraryFiles.exists(keyFile) { try LibraryFiles.copy(keyFile, to: aside + ".key") }
            try LibraryFiles.moveIfPresent(anchorFile, to: aside + ".anchors")
            replaced = ReplacedLibrary(keptAs: aside, summary: summary)
        } else {
            // No library, but a key or anchors of one: kept aside rather than written over.
            for file in [keyFile, anchorFile] where LibraryFiles.exists(file) {
                try LibraryFiles.move(file, to: Self.freeName(file + ".replaced-" + stamp))
            }
        }
        try LibraryFiles.moveIfPresent(staged.path + ".key", to: keyFile)
        try LibraryFiles.moveIfPresent(staged.path + ".anchors", to: anchorFile)
        try LibraryFiles.move(staged.path, to: target)
        LibraryFiles.sync(LibraryFiles.folder(of: target))
        return replaced
    }

    public func discard(_ staged: StagedRestore) { LibraryFiles.removeAll(staged.path) }

    /// Removes what SQLite and the lock leave beside a closed copy: its WAL was checkpointed and
    /// emptied by `close()`, so only the database file is moved into place.
    private static func tidy(_ staged: String) throws {
        let wal = (try? FileManager.default.attributesOfItem(atPath: staged + "-wal")[.size] as? Int) ?? 0
        guard wal == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: staged + "-wal"]) }
        for suffix in ["-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
    }

    /// What the library being replaced holds, its WAL copied into its file first so the file kept
    /// aside is whole; nil when it cannot be read as a library (it is kept aside all the same).
    private static func settle(_ path: String) -> LibrarySummary? {
        guard let queue = try? DatabaseQueue(path: path) else { return nil }
        defer { try? queue.close() }
        let summary = try? queue.read { db in try db.tableExists("events") ? try LibraryFiles.summary(db) : nil }
        _ = try? queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        return summary ?? nil
    }

    /// `path`, or `path-2`, `path-3`… when it is taken.
    private static func freeName(_ path: String) -> String {
        var candidate = path
        var n = 1
        while LibraryFiles.exists(candidate) || LibraryFiles.exists(candidate + ".key") {
            n += 1
            candidate = "\(path)-\(n)"
        }
        return candidate
    }
}
