import Application
import ArgumentParser
import Domain
import Foundation
import Wording

/// `shelfmark`: the library server and its command line.
public struct ShelfmarkCommand: AsyncParsableCommand {
    /// Shelfmark's version, as `shelfmark --version` says it: kept here and nowhere else (the HTTP
    /// contract's own version is `info.version` in openapi.yaml).
    public static let version = "0.14.0"

    public static let configuration = CommandConfiguration(
        commandName: "shelfmark",
        abstract: t("cli.root.abstract"),
        discussion: t("cli.root.discussion", "\(ExitStatus.help)"),
        version: version,
        groupedSubcommands: [
            CommandGroup(name: t("cli.root.group.catalogue"), subcommands: [BookCommand.self, SearchCommand.self, BookmarkCommand.self]),
            CommandGroup(
                name: t("cli.root.group.circulation"),
                subcommands: [LoanCommand.self, DeskCommand.self, HoldCommand.self, NoticesCommand.self]),
            CommandGroup(
                name: t("cli.root.group.accounts"),
                subcommands: [
                    SignUpCommand.self, LogInCommand.self, LogOutCommand.self, WhoAmI.self, AccountCommand.self, PasswordCommand.self,
                    UserCommand.self, CountriesCommand.self,
                ]),
            CommandGroup(
                name: t("cli.root.group.running"),
                subcommands: [
                    Serve.self, BackupCommand.self, RestoreCommand.self, AuditCommand.self, ProjectionsCommand.self, CompatCommand.self,
                    MigrateCommand.self, CopyCommand.self,
                ]),
        ])

    @OptionGroup var global: GlobalOptions

    public init() {}

    /// Parses and runs; every failure is told once, here, as `FailureReport` says, with its exit status.
    public static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let json = arguments.prefix { $0 != "--" }.contains("--json")
        if case .failure = Speaking.choice(CommandLine.arguments, ProcessInfo.processInfo.environment) {
            // Before parsing, so help is never printed in a language nobody asked for.
            Foundation.exit(FailureReport.report(usage("--lang", .notOneOf(Language.allCases.map(\.rawValue))), json: json).rawValue)
        }
        if let argument = firstArgumentNotUTF8() {
            // Swift reads such bytes as U+FFFD: a title would be stored with them silently replaced.
            let failure = Reader.$language.withValue(Speaking.language) { usage(t("cli.argument", String(argument)), .notUTF8) }
            Foundation.exit(FailureReport.report(failure, json: json).rawValue)
        }
        await Reader.$language.withValue(Speaking.language) { await run(arguments, json: json) }
    }

    /// The position (1 for the first after the command's name) of the first argument whose bytes
    /// are not UTF-8, or nil.
    private static func firstArgumentNotUTF8() -> Int? {
        (1..<Int(CommandLine.argc)).first { index in
            CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
        }
    }

    private static func run(_ arguments: [String], json: Bool) async {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            CommandLineNotes.tell()
        } catch {
            // Help, --version and ArgumentParser's own usage errors in plain text: its words and status,
            // a usage error's frame in the run's language.
            if error is ExitCode { exit(withError: error) }
            if exitCode(for: error) == .success {
                print(FailureReport.helpText(fullMessage(for: error)))
                Foundation.exit(ExitCode.success.rawValue)
            }
            if !json && exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((FailureReport.usageText(fullMessage(for: error)) + "\n").utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            Foundation.exit(FailureReport.report(error, json: json, arguments: arguments).rawValue)
        }
    }
}

extension CommandConfiguration {
    /// A subcommand's configuration; its discussion ends by saying where the global options are.
    static func leaf(
        _ name: String? = nil, abstract: String, usage: String? = nil, discussion: String = ""
    ) -> CommandConfiguration {
        let pointer = t("cli.leaf.pointer")
        return CommandConfiguration(
            commandName: name, abstract: abstract, usage: usage, discussion: discussion.isEmpty ? pointer : discussion + "\n\n" + pointer)
    }
}

/// `shelfmark serve`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        abstract: t("cli.serve.abstract"),
        discussion: t("cli.serve.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp(t("cli.serve.host"))) var host = "127.0.0.1"
    @Option(parsing: .unconditional, help: ArgumentHelp(t("cli.serve.port"))) var port = 8080
    @Option(
        name: .customLong("backup-every"),
        help: ArgumentHelp(
            t("cli.serve.backupEvery"),
            valueName: "duration"))
    var backupEvery: String?
    @Option(help: ArgumentHelp(t("cli.serve.keep"), valueName: "n"))
    var keep: String?
    @Option(
        name: .customLong("backup-dir"),
        help: ArgumentHelp(t("cli.serve.backupDir"), valueName: "folder"))
    var backupDir: String?
    @Option(
        name: .customLong("bitbooks-port"),
        help: ArgumentHelp(
            t("cli.serve.bitbooksPort"),
            valueName: "port"))
    var bitbooksPort: Int?
    @Option(
        name: .customLong("bitbooks-host"),
        help: ArgumentHelp(t("cli.serve.bitbooksHost"), valueName: "host"))
    var bitbooksHost: String?
    @Flag(
        help: ArgumentHelp(t("cli.serve.prolific")))
    var prolific = false
    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(t("cli.serve.logFormat"), valueName: "text|json"))
    var logFormat: String?
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(t("cli.serve.logLevel"), valueName: "level"))
    var logLevel: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw usage("--port", .outOfRange(min: 0, max: 65_535)) }
        if let bitbooksPort, !(0...65_535).contains(bitbooksPort) { throw usage("--bitbooks-port", .outOfRange(min: 0, max: 65_535)) }
    }

    func run() async throws {
        try await CLIContext.current().serve(
            ServeOptions(
                host: host, port: port, library: global.options, backupEvery: backupEvery, keep: keep, backupDir: backupDir,
                bitbooksPort: bitbooksPort, bitbooksHost: bitbooksHost, prolific: prolific, logFormat: logFormat, logLevel: logLevel))
    }
}

/// `shelfmark projections ...`.
struct ProjectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections", abstract: t("cli.projections.abstract"),
        subcommands: [Rebuild.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.projections.rebuild.abstract"),
            discussion: t("cli.projections.rebuild.discussion"))

        @OptionGroup(visibility: .hidden) var global: GlobalOptions

        func run() async throws {
            let library = try await global.library()
            let progress = Progress(label: t("cli.progress.replayingEvents"))
            let count = try await library.readModels.rebuild { done, total in progress.update(done, of: total) }
            progress.finish()
            if global.json { return try printJSON(["replayed": count]) }
            print(say(.readModelsRebuilt(events: count)))
        }
    }
}
