import Application
import ArgumentParser
import Foundation

/// `shelfmark`: the library server and its command line.
public struct ShelfmarkCommand: AsyncParsableCommand {
    /// Shelfmark's version, as `shelfmark --version` says it: kept here and nowhere else (the HTTP
    /// contract's own version is `info.version` in openapi.yaml).
    public static let version = "0.14.0"

    public static let configuration = CommandConfiguration(
        commandName: "shelfmark",
        abstract: "Shelfmark: a library server with an event-sourced, tamper-proof history.",
        discussion: """
            Every change is an event in an append-only SQLite log. Run `shelfmark serve` for the web pages and the HTTP API, \
            or manage the library directly with `shelfmark book ...` on the same database file.

            The options below work before or after any subcommand; subcommands' help leaves them out. \
            With --json a command prints exactly what the API answers for the same operation, and a \
            failure is the API's problem document on standard error.

            EXIT STATUS
            \(ExitStatus.help)
            """,
        version: version,
        groupedSubcommands: [
            CommandGroup(name: "Catalogue", subcommands: [BookCommand.self, SearchCommand.self, BookmarkCommand.self]),
            CommandGroup(name: "Circulation", subcommands: [LoanCommand.self, DeskCommand.self, HoldCommand.self, NoticesCommand.self]),
            CommandGroup(
                name: "Accounts",
                subcommands: [
                    SignUpCommand.self, LogInCommand.self, LogOutCommand.self, WhoAmI.self, AccountCommand.self, PasswordCommand.self,
                    UserCommand.self, CountriesCommand.self,
                ]),
            CommandGroup(
                name: "Running the library",
                subcommands: [
                    Serve.self, BackupCommand.self, RestoreCommand.self, AuditCommand.self, ProjectionsCommand.self, CompatCommand.self,
                ]),
        ])

    @OptionGroup var global: GlobalOptions

    public init() {}

    /// Parses and runs; every failure is told once, here, as `FailureReport` says, with its exit status.
    public static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            CommandLineNotes.tell()
        } catch {
            // Help, --version and ArgumentParser's own usage errors in plain text: its words and status.
            let json = arguments.prefix { $0 != "--" }.contains("--json")
            if error is ExitCode || exitCode(for: error) == .success || (!json && exitCode(for: error) == .validationFailure) {
                exit(withError: error)
            }
            Foundation.exit(FailureReport.report(error, json: json).rawValue)
        }
    }
}

extension CommandConfiguration {
    /// A subcommand's configuration; its discussion ends by saying where the global options are.
    static func leaf(
        _ name: String? = nil, abstract: String, usage: String? = nil, discussion: String = ""
    ) -> CommandConfiguration {
        let pointer = "Global options (--db, --json, the outside services' URLs) and exit statuses: `shelfmark --help`."
        return CommandConfiguration(
            commandName: name, abstract: abstract, usage: usage, discussion: discussion.isEmpty ? pointer : discussion + "\n\n" + pointer)
    }
}

/// `shelfmark serve`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        abstract: "Serve the web pages (/) and the HTTP API (/api/v1, /openapi.yaml) until interrupted.",
        discussion: "SIGINT or SIGTERM stops it gracefully: requests in flight finish and the database closes cleanly.")

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
    @Option(
        name: .customLong("backup-every"),
        help: ArgumentHelp(
            "Back the library up this often while serving, e.g. 30m, 6h, 1d ($SHELFMARK_BACKUP_EVERY). Default: no backups.",
            valueName: "duration"))
    var backupEvery: String?
    @Option(help: ArgumentHelp("How many backups to keep; older ones are removed ($SHELFMARK_BACKUP_KEEP). Default: 7.", valueName: "n"))
    var keep: String?
    @Option(
        name: .customLong("backup-dir"),
        help: ArgumentHelp("Where the backups go ($SHELFMARK_BACKUP_DIR). Default: backups/ beside the database.", valueName: "folder"))
    var backupDir: String?
    @Option(
        name: .customLong("bitbooks-port"),
        help: ArgumentHelp(
            "Also answer BitBooks clients (a line protocol over TCP) on this port, 0 picks a free one ($SHELFMARK_BITBOOKS_PORT). Default: off.",
            valueName: "port"))
    var bitbooksPort: Int?
    @Option(
        name: .customLong("bitbooks-host"),
        help: ArgumentHelp("The address BitBooks clients connect to ($SHELFMARK_BITBOOKS_HOST). Default: 127.0.0.1.", valueName: "host"))
    var bitbooksHost: String?
    @Flag(
        help: "Answer the Prolific apps under /KEY/ even before a key exists (default: only while one does; see `shelfmark compat`).")
    var prolific = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw usage("--port", .outOfRange(min: 0, max: 65_535)) }
        if let bitbooksPort, !(0...65_535).contains(bitbooksPort) { throw usage("--bitbooks-port", .outOfRange(min: 0, max: 65_535)) }
    }

    func run() async throws {
        try await CLIContext.current().serve(
            ServeOptions(
                host: host, port: port, library: global.options, backupEvery: backupEvery, keep: keep, backupDir: backupDir,
                bitbooksPort: bitbooksPort, bitbooksHost: bitbooksHost, prolific: prolific))
    }
}

/// `shelfmark projections ...`.
struct ProjectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections", abstract: "Maintain the read models built from the event log.",
        subcommands: [Rebuild.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Rebuild every read model by replaying the whole log, then switch to it at once.",
            discussion: "Writers wait while it runs; none of their changes is lost. No API twin; with --json, prints {\"replayed\": N}.")

        @OptionGroup(visibility: .hidden) var global: GlobalOptions

        func run() async throws {
            let library = try await global.library()
            let progress = Progress(label: "replaying events")
            let count = try await library.readModels.rebuild { done, total in progress.update(done, of: total) }
            progress.finish()
            if global.json { return try printJSON(["replayed": count]) }
            print(say(.readModelsRebuilt(events: count)))
        }
    }
}
