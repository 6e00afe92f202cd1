import Application
import ArgumentParser
import Foundation

/// `shelfmark backup`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "backup",
        abstract: "Write a consistent copy of the library, even while `serve` runs and writes.",
        discussion: """
            SQLite's online backup copies the library as of one moment: every event acknowledged before the backup began is in \
            the copy. The chain key goes beside it as FILE.key and the data folder's anchors as FILE.anchors, so \
            `shelfmark --db FILE audit verify` checks the copy on its own; keep FILE.key with the backup, as secret as the \
            library's own key. Everything is written under temporary names and renamed into place at the end: a backup that \
            fails leaves nothing behind. `serve --backup-every` keeps rotating backups. No API twin (it writes files on the \
            server's disk); with --json, prints {file, events, head, keyFile, anchorFile}.
            """)

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp("The backup file to write.", valueName: "file")) var to: String
    @Flag(help: "Replace the file (and its .key and .anchors) if it exists.") var force = false

    func run() async throws {
        let (library, principal) = try await global.acting()
        let progress = Progress(label: "backing up", unit: "pages")
        let report = try await library.backUp.execute(to: to, replacing: force, by: principal) { progress.update($0, of: $1) }
        progress.finish()
        if global.json { return try printJSON(BackupAnswer(report)) }
        print(say(.backedUp(report)))
    }
}

/// `shelfmark restore`.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "restore",
        abstract: "Put a backup in place of the library (--db) once it verifies, keeping the library it replaces.",
        discussion: """
            The backup (with FILE.key and FILE.anchors beside it) is copied next to the library, opened there and put through \
            every check of `audit verify`; a backup that fails one is refused, naming it, and nothing changes. It is refused \
            too while any process has the library open (every process holds the lock file <database>.lock while it does): \
            stop `serve` first. The library replaced is renamed <database>.replaced-<time> with its key and anchors beside it, \
            never deleted. Runs on the files, as their owner (no login). No API twin (it replaces files on the server's disk); \
            with --json, prints {backup, database, events, head, replaced}.
            """)

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp("The backup file to restore.", valueName: "file")) var from: String

    func run() async throws {
        let restore = try CLIContext.current().restoring(global.options)
        let progress = Progress(label: "verifying the backup")
        let report = try await restore.execute(from: from) { progress.update($0, of: $1) }
        progress.finish()
        if global.json { return try printJSON(RestoreAnswer(report)) }
        print(say(.restored(report)))
    }
}

/// `backup --json`.
struct BackupAnswer: Encodable {
    let file: String
    let events: Int64
    let head: String?
    let keyFile: String?
    let anchorFile: String?

    init(_ report: BackupReport) {
        file = report.file
        events = report.summary.events
        head = report.summary.headHash
        keyFile = report.keyFile
        anchorFile = report.anchorFile
    }
}

/// `restore --json`.
struct RestoreAnswer: Encodable {
    struct Replaced: Encodable {
        let keptAs: String
        let events: Int64?
        let head: String?
    }
    let backup: String
    let database: String
    let events: Int64
    let head: String?
    let replaced: Replaced?

    init(_ report: RestoreReport) {
        backup = report.backup
        database = report.target
        events = report.restored.events
        head = report.restored.headHash
        replaced = report.replaced.map { Replaced(keptAs: $0.keptAs, events: $0.summary?.events, head: $0.summary?.headHash) }
    }
}
