import Application
import Foundation
import GRDB

/// `shelfmark backup` and `serve`'s rotating backups: SQLite's online backup API, through GRDB,
/// copying the pages of one read transaction. In WAL mode that snapshot is fixed for the whole
/// copy while the writer keeps committing, so the copy is the library as of one moment (every
/// event acknowledged before it began, none half-written) and never restarts under load.
extension LibraryDatabase: LibraryBackup {
    /// Pages copied per step: progress every 4 MiB or so (pages of 4 KiB).
    static let pagesPerStep: Int32 = 1_024

    /// The file's pages, copied as they are.
    public var progressUnit: BackupProgressUnit { .pages }

    /// The database, what SQLite and Shelfmark keep beside it (`LibraryFiles.suffixes`), and the
    /// chain key wherever it is (`SHELFMARK_CHAIN_KEY` may put it elsewhere).
    public func isOwnFile(_ path: String) -> Bool {
        let own = LibraryFiles.suffixes.map { pool.path + $0 } + (chain.key.map { [$0.path] } ?? [])
        return own.contains { LibraryFiles.same(path, $0) }
    }

    public func backUp(
        to file: String, anchors: String?, replacing: Bool, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> BackupReport {
        try await backUp(to: file, anchors: anchors, replacing: replacing, pagesPerStep: Self.pagesPerStep, progress: progress)
    }

    /// The backup, `pagesPerStep` pages at a time (tests take many small steps).
    func backUp(
        to file: String, anchors: String?, replacing: Bool, pagesPerStep: Int32, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> BackupReport {
        guard !LibraryFiles.same(file, pool.path) else { throw BackupRefused(.sameAsLibrary(file)) }
        // The copy's own key and anchors are written beside it: none may land on the library's.
        if let own = [file, file + ".key", file + ".anchors"].first(where: isOwnFile) { throw BackupRefused(.libraryFile(own)) }
        let partial = try LibraryFiles.partialBackup(to: file, replacing: replacing)
        defer { LibraryFiles.removeAll(partial) }
        do {
            return try await copy(to: file, through: partial, anchors: anchors, pagesPerStep: pagesPerStep, progress: progress)
        } catch is DatabaseError {
            throw InvalidInput("to", .fileUnusable(file))
        }
    }

    private func copy(
        to file: String, through partial: String, anchors: String?, pagesPerStep: Int32,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> BackupReport {
        // The anchors first: each names a head committed before the snapshot below, so the copy holds it.
        let anchored = try anchors.map { try LibraryFiles.copyAnchors($0, to: partial + ".anchors") } ?? false
        let destination = try DatabaseQueue(path: partial)
        let summary = try await pool.read { db in
            try destination.writeWithoutTransaction { copy in
                try db.backup(to: copy, pagesPerStep: pagesPerStep) { step in
                    progress(Int64(step.completedPageCount), Int64(step.totalPageCount))
                }
            }
            return try LibraryFiles.summary(db)
        }
        try destination.close()
        try await eventStore.flushNow()  // the copy holds no event that a power cut could take from the library
        let key = try chain.key.map { try $0.copy(to: partial + ".key") }
        return try LibraryFiles.place(partial, as: file, keyed: key != nil, anchored: anchored, summary: summary)
    }
}
