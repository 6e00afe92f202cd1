import Application
import ArgumentParser
import Foundation

/// `shelfmark backup`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "backup",
        abstract: t("cli.backup.abstract"),
        discussion: t("cli.backup.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp(t("cli.backup.to"), valueName: "file")) var to: String
    @Flag(help: ArgumentHelp(t("cli.backup.force"))) var force = false

    func run() async throws {
        let (library, principal) = try await global.acting(diagnosing: true)
        let unit = library.backUp.progressUnit == .pages ? t("cli.progress.pages") : t("cli.progress.events")
        let progress = Progress(label: t("cli.progress.backingUp"), unit: unit)
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
        abstract: t("cli.restore.abstract"),
        discussion: t("cli.restore.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp(t("cli.restore.from"), valueName: "file")) var from: String

    func run() async throws {
        let restore = try CLIContext.current().restoring(global.options)
        let progress = Progress(label: t("cli.progress.verifyingBackup"))
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
