import Application
import ArgumentParser

/// What the CLI needs from the composition root; set as a task-local before parsing, so commands
/// (which ArgumentParser creates itself) reach the concrete adapters without naming them.
public protocol CLIEnvironment: Sendable {
    /// Opens the library stored at `database`, or at the default location when nil.
    func open(database: String?) async throws -> Library
    /// Serves the HTTP API until SIGINT or SIGTERM, then shuts down gracefully.
    func serve(_ options: ServeOptions) async throws
}

/// Where and what `shelfmark serve` serves.
public struct ServeOptions: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let database: String?
}

/// The environment of the running command line.
public enum CLIContext {
    @TaskLocal public static var environment: (any CLIEnvironment)?

    static func current() throws -> any CLIEnvironment {
        guard let environment else { throw CLIFailure("the command line was started without its environment") }
        return environment
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The library database file. Default: $SHELFMARK_DB, else $XDG_DATA_HOME/shelfmark/library.sqlite.",
        valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Print JSON for scripts instead of tables.")
    var json = false

    func library() async throws -> Library {
        try await CLIContext.current().open(database: db)
    }

    /// The library and who the CLI acts as in it (the saved session's user, else the operator).
    func acting() async throws -> (Library, Principal) {
        let library = try await library()
        return (library, try await SavedSession.principal(library))
    }
}
