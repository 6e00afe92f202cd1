import Application
import Foundation
import GRDB
import LogChain

/// A library file made from any store's log (`LogCopySource`): `audit replay`, time travel and,
/// for a library whose log is not in a SQLite file (PostgreSQL), its backups, which are then
/// SQLite libraries that verify, restore or copy back on their own.
public struct SQLiteCopy: LogReplayer, LibraryBackup {
    let source: any LogCopySource
    let cipher: any PersonalCipher

    /// Copies of `source`'s log, opened with `cipher` (the source's).
    public init(of source: any LogCopySource, cipher: any PersonalCipher) {
        self.source = source
        self.cipher = cipher
    }

    /// The copy carries the chain key (`<path>.key`, the same secret) when the log has one, so it verifies on its own.
    public func replay(into path: String, until: ReplayLimit, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Int64 {
        // Nor anything SQLite or Shelfmark would open beside it: a `-shm` hard-linked to the library
        // was written through (found by an outside walk).
        for file in LibraryFiles.suffixes.map({ path + $0 }) where LibraryFiles.isPresent(file) {
            throw InvalidInput("into", .fileExists(file))
        }
        do {
            return try await copy(into: path, until: until, carryingSecrets: true, progress: progress)
        } catch {
            // None of these was there before: a failed replay leaves no library that would verify
            // (found by an outside walk: an empty one stayed, and the next try said it existed).
            for file in LibraryFiles.suffixes.map({ path + $0 }) { try? FileManager.default.removeItem(atPath: file) }
            throw error
        }
    }

    private func copy(
        into path: String, until: ReplayLimit, carryingSecrets: Bool, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> Int64 {
        let target = try LibraryDatabase(path: path, durability: .off, cipher: cipher)
        defer { try? target.close() }
        return try await LogCopy.copy(
            from: source, to: target, until: until, carryingSecrets: carryingSecrets, keyFile: path + ".key", progress: progress)
    }

    /// The read models as of `until`, built in a scratch database without the members' keys (the
    /// events carry what the source read) and removed afterwards.
    public func withSnapshot<T: Sendable>(until: ReplayLimit, _ body: (LibrarySnapshot) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-asof-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("snapshot.sqlite").path
        let events = try await copy(into: path, until: until, carryingSecrets: false) { _, _ in }
        let snapshot = try LibraryDatabase(path: path, durability: .off, cipher: cipher)
        defer { try? snapshot.close() }
        return try await body(
            LibrarySnapshot(
                catalogue: snapshot.catalogue, loans: snapshot.loans, notices: snapshot.loans, accounts: snapshot.accounts,
                holds: snapshot.holds, events: events))
    }

    /// The log's events, copied one after another.
    public var progressUnit: BackupProgressUnit { .events }

    /// A library whose log is not in a SQLite file keeps none of its files on this machine.
    public func isOwnFile(_ path: String) -> Bool { false }

    /// The whole log as a SQLite library at `file` (its chain key at `<file>.key`, the anchors at
    /// `<file>.anchors`), written under temporary names and moved into place at the end, the
    /// database last. Reports (done, total) events.
    public func backUp(
        to file: String, anchors: String?, replacing: Bool, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> BackupReport {
        let partial = try LibraryFiles.partialBackup(to: file, replacing: replacing)
        defer { LibraryFiles.removeAll(partial) }
        // The anchors first: each names a head committed before the copy began, which it therefore holds.
        let anchored = try anchors.map { try LibraryFiles.copyAnchors($0, to: partial + ".anchors") } ?? false
        do {
            _ = try await copy(into: partial, until: .end, carryingSecrets: true, progress: progress)
        } catch is DatabaseError {
            throw InvalidInput("to", .fileUnusable(file))
        }
        let copied = try DatabaseQueue(path: partial)
        let summary = try await copied.read { db in try LibraryFiles.summary(db) }
        try copied.close()
        return try LibraryFiles.place(partial, as: file, keyed: LibraryFiles.exists(partial + ".key"), anchored: anchored, summary: summary)
    }
}
