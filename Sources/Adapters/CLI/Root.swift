import Application
import ArgumentParser

/// `shelfmark`: the library server and its command line.
public struct ShelfmarkCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "shelfmark",
        abstract: "Shelfmark: a library server with an event-sourced, tamper-proof history.",
        discussion: """
            Every change is an event in an append-only SQLite log. Run `shelfmark serve` for the HTTP API,
            or manage the catalogue directly with `shelfmark book ...` on the same database file.
            """,
        subcommands: [
            Serve.self, BookCommand.self, SignUpCommand.self, LogInCommand.self, LogOutCommand.self, WhoAmI.self,
            UserCommand.self, CountriesCommand.self, LoanCommand.self, NoticesCommand.self, SearchCommand.self, BookmarkCommand.self,
            AuditCommand.self, ProjectionsCommand.self,
        ])

    @OptionGroup var global: GlobalOptions

    public init() {}
}

/// `shelfmark serve`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API (/api/v1, /openapi.yaml) until interrupted.",
        discussion: "SIGINT or SIGTERM stops it gracefully: requests in flight finish and the database closes cleanly.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8080

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        try await reportingFailures {
            try await CLIContext.current().serve(ServeOptions(host: host, port: port, library: global.options))
        }
    }
}

/// `shelfmark projections ...`.
struct ProjectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections", abstract: "Maintain the read models built from the event log.",
        subcommands: [Rebuild.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild every read model by replaying the whole log, then switch to it at once.",
            discussion: "Writers wait while it runs; none of their changes is lost.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reportingFailures {
                let library = try await global.library()
                let progress = Progress(label: "replaying events")
                let count = try await library.readModels.rebuild { done, total in progress.update(done, of: total) }
                progress.finish()
                if global.json {
                    try printJSON(["replayed": count])
                } else {
                    print("Rebuilt the read models from \(count) events.")
                }
            }
        }
    }
}
