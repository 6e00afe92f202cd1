import Application
import Foundation
import GRDB
import LogChain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of one library: the database, its WAL files, and the chain key and anchors beside it,
/// as backups and restores name them.
public enum LibraryFiles {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Whether the two paths name one file (the same inode when both exist, else the same path).
    static func same(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        if stat(a, &first) == 0, stat(b, &second) == 0 { return first.st_dev == second.st_dev && first.st_ino == second.st_ino }
        return canonical(a) == canonical(b)
    }

    /// The path a file at `path` would be created at: symbolic links followed, dangling ones too
    /// (found by an outside walk: a link to the library's anchor file, not made yet, let a replay
    /// write there), and the folder's own links resolved.
    static func canonical(_ path: String, hops: Int = 0) -> String {
        if hops < 16, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            return canonical(target.hasPrefix("/") ? target : folder(of: path) + "/" + target, hops: hops + 1)
        }
        let folder = URL(fileURLWithPath: folder(of: path)).resolvingSymlinksInPath()
        return folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).standardizedFileURL.path
    }

    /// Whether anything is at `path`, a dangling symbolic link included.
    static func isPresent(_ path: String) -> Bool { (try? FileManager.default.attributesOfItem(atPath: path)) != nil }

    /// Renames `from` to `to`, replacing a file there, in one step.
    static func move(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: to]) }
    }

    /// Moves `from` to `to` when it exists.
    static func moveIfPresent(_ from: String, to: String) throws {
        if exists(from) { try move(from, to: to) }
    }

    /// Copies the bytes of `from` to a new file `to` with `mode`, flushed to disk.
    static func copy(_ from: String, to: String, mode: mode_t = 0o600) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: from))
        try writeNew(bytes, to: to, mode: mode)
    }

    /// Writes `bytes` to a new file `to` with `mode`, flushed to disk.
    static func writeNew(_ bytes: Data, to: String, mode: mode_t = 0o600) throws {
        let fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: to]) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else { throw CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: to]) }
    }

    /// Flushes a file (or a folder's entries) to disk.
    static func sync(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    static func folder(of path: String) -> String { LogChain.folder(of: path) }

    /// What a library's files add to its database's path: the database itself, SQLite's WAL, shared
    /// memory and journal, and Shelfmark's chain key, anchors and lock.
    static let suffixes = ["", "-wal", "-shm", "-journal", ".key", ".anchors", ".lock"]

    /// The first file kept beside the database at `path` (by SQLite or Shelfmark, the chain key
    /// being at `keyFile`) that is there but is no regular file, links followed, or a link to
    /// nothing (an outside walk: a new library's key, written through such a link, was kept
    /// nowhere, and the library refused to open again); nil when none is.
    public static func companionThatIsNoFile(of path: String, keyFile: String) -> String? {
        (suffixes.filter { $0 != "" && $0 != ".key" }.map { path + $0 } + [keyFile]).first(where: isNoFile)
    }

    /// Whether something is at `path` that no file can be written as: a folder, a device, a pipe
    /// (links followed), or a symbolic link to nothing.
    static func isNoFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return isPresent(path) }  // a link to nothing
        return (info.st_mode & S_IFMT) != S_IFREG
    }

    /// Removes the database at `path` with everything SQLite and Shelfmark keep beside it.
    static func removeAll(_ path: String) {
        for suffix in suffixes {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// The event count and head hash of the log in `db`.
    static func summary(_ db: Database) throws -> LibrarySummary {
        let row = try Row.fetchOne(
            db, sql: "SELECT COUNT(*) AS events, (SELECT hash FROM events ORDER BY position DESC LIMIT 1) AS head FROM events")
        return LibrarySummary(events: row?["events"] ?? 0, headHash: row?["head"])
    }

    /// Copies the complete lines of the anchor file (an anchor being appended meanwhile is left
    /// for the next backup); false when there is no anchor file.
    static func copyAnchors(_ anchors: String, to copy: String) throws -> Bool {
        guard let data = FileManager.default.contents(atPath: anchors) else { return false }
        let complete = data.lastIndex(of: UInt8(ascii: "\n")).map { data[...$0] } ?? Data()
        try LibraryFiles.writeNew(Data(complete), to: copy, mode: 0o644)
        return true
    }

    /// Moves a finished backup (`partial`, its key and anchors beside it) into place as `file`,
    /// the database last: a new backup never stands without its key.
    static func place(_ partial: String, as file: String, keyed: Bool, anchored: Bool, summary: LibrarySummary) throws -> BackupReport {
        chmod(partial, 0o600)
        sync(partial)
        if keyed { try move(partial + ".key", to: file + ".key") }
        if anchored {
            try move(partial + ".anchors", to: file + ".anchors")
        } else {
            try? FileManager.default.removeItem(atPath: file + ".anchors")  // a replaced backup's, not this one's
        }
        try move(partial, to: file)
        sync(folder(of: file))
        return BackupReport(
            file: file, summary: summary, keyFile: keyed ? file + ".key" : nil, anchorFile: anchored ? file + ".anchors" : nil)
    }

    /// Where a backup to `file` is written before it is moved into place: refuses files there
    /// unless `replacing`, and makes the folder. The caller removes what is left of it at the end.
    static func partialBackup(to file: String, replacing: Bool) throws -> String {
        let names = [file, file + ".key", file + ".anchors"]
        // Even with --force only files are replaced: never a folder, a device (`--to /dev/null`) or
        // a link to nothing; nor may SQLite's own files beside the copy be any of those (an outside
        // walk: a pipe at `FILE-wal` made a backup that could not be opened).
        if let other = isNoFile(file) ? file : companionThatIsNoFile(of: file, keyFile: file + ".key") {
            throw InvalidInput("to", .fileUnusable(other))
        }
        if !replacing, let existing = names.first(where: exists) { throw BackupRefused(.fileExists(existing)) }
        let folder = folder(of: file)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw InvalidInput("to", .folderUnusable(folder))
        }
        return file + ".partial-\(UUID().uuidString)"
    }
}
