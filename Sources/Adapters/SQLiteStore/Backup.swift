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
        let names = [file, file + ".key", file + ".anchors"]
        if !replacing, let existing = names.first(where: LibraryFiles.exists) { throw BackupRefused(.fileExists(existing)) }
        let folder = LibraryFiles.folder(of: file)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw InvalidInput("to", .folderUnusable(folder))
        }
        let partial = file + ".partial-\(UUID().uuidString)"
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
        let anchored = try anchors.map { try Self.copyAnchors($0, to: partial + ".anchors") } ?? false
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
        chmod(partial, 0o600)
        LibraryFiles.sync(partial)
        let key = try chain.key.map { try $0.copy(to: partial + ".key") }
        // Into place, the database last: a new backup never stands without its key.
        if key != nil { try LibraryFiles.move(partial + ".key", to: file + ".key") }
        if anchored {
            try LibraryFiles.move(partial + ".anchors", to: file + ".anchors")
        } else {
            try? FileManager.default.removeItem(atPath: file + ".anchors")  // a replaced backup's, not this one's
        }
        try LibraryFiles.move(partial, to: file)
        LibraryFiles.sync(LibraryFiles.folder(of: file))
        return BackupReport(
            file: file, summary: summary, keyFile: key == nil ? nil : file + ".key", anchorFile: anchored ? file + ".anchors" : nil)
    }

    /// Copies the complete lines of the anchor file (an anchor being appended meanwhile is left
    /// for the next backup); false when there is no anchor file.
    private static func copyAnchors(_ anchors: String, to copy: String) throws -> Bool {
        guard let data = FileManager.default.contents(atPath: anchors) else { return false }
        let complete = data.lastIndex(of: UInt8(ascii: "\n")).map { data[...$0] } ?? Data()
        try LibraryFiles.writeNew(Data(complete), to: copy, mode: 0o644)
        return true
    }
}
