import Application
import ArgumentParser
import Foundation

/// `shelfmark migrate`.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "migrate",
        abstract: t("cli.migrate.abstract"),
        discussion: t("cli.migrate.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        let (location, applied) = try await CLIContext.current().migrate(global.options)
        if global.json { return try printJSON(MigrateAnswer(location: location, applied: applied)) }
        print(say(.schemaCurrent(location: location, applied: applied)))
    }
}

/// `shelfmark copy`.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "copy",
        abstract: t("cli.copy.abstract"),
        discussion: t("cli.copy.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp(t("cli.copy.from"), valueName: "file")) var from: String
    @Option(help: ArgumentHelp(t("cli.copy.to"), valueName: "url")) var to: String

    func run() async throws {
        let progress = Progress(label: t("cli.progress.copying"), unit: t("cli.progress.events"))
        let copied = try await CLIContext.current().copy(from: from, to: to, global.options) { progress.update($0, of: $1) }
        progress.finish()
        print(say(copied))
    }
}

/// `migrate --json`.
struct MigrateAnswer: Encodable {
    let location: String
    let applied: [String]
}
