import Application
import ArgumentParser

/// What the CLI needs from the composition root; set as a task-local before parsing, so commands
/// (which ArgumentParser creates itself) reach the concrete adapters without naming them.
public protocol CLIEnvironment: Sendable {
    /// Opens the library these options name (nil values: defaults and environment).
    func open(_ options: LibraryOptions) async throws -> Library
    /// Serves the HTTP API until SIGINT or SIGTERM, then shuts down gracefully.
    func serve(_ options: ServeOptions) async throws
    /// The restore of the library these options name, which it does not open.
    func restoring(_ options: LibraryOptions) throws -> RestoreLibrary
    /// Creates or upgrades the schema of the library these options name (every open does too);
    /// where it is, and the migrations applied now.
    func migrate(_ options: LibraryOptions) async throws -> (location: String, applied: [String])
    /// Copies the log of the SQLite library at `from`, hashes and members' keys and all, into the
    /// empty PostgreSQL database `to` names, which builds its read models from it; reports (done,
    /// total) events. Refuses a database that holds events already.
    func copy(from: String, to: String, _ options: LibraryOptions, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws
        -> Confirmation
}

/// Which library to open and which outside services it may ask.
public struct LibraryOptions: Sendable, Equatable {
    public let database: String?
    /// `--database-url`: the PostgreSQL database instead of the SQLite file.
    public var databaseURL: String? = nil
    public let countriesURL: String?
    public let geoURL: String?
    public let geoToken: String?
    public let openLibraryURL: String?
    public let coversURL: String?
    /// For a command that only reads the library (verify, export, history, backup): a SQLite file
    /// that does not exist is refused, not created empty.
    public var mustExist = false
    /// For a command that reads the library whole to say what is wrong with it or keep a copy
    /// (`audit verify`, `audit export`, `backup`): a log with an event that cannot be read opens
    /// (`UnreadableEvent`), which every other command refuses.
    public var diagnosing = false
}

/// Where and what `shelfmark serve` serves.
public struct ServeOptions: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let library: LibraryOptions
    /// Rotating backups: `--backup-every`, `--keep`, `--backup-dir` as given (nil: the environment's).
    public let backupEvery: String?
    public let keep: String?
    public let backupDir: String?
    /// The BitBooks protocol: `--bitbooks-port`, `--bitbooks-host` as given (nil: the environment's).
    public var bitbooksPort: Int? = nil
    public var bitbooksHost: String? = nil
    /// `--prolific`: answer the Prolific apps under `/{key}/` even before any key exists.
    public var prolific = false
    /// The log: `--log-format`, `--log-level` as given (nil: the environment's).
    public var logFormat: String? = nil
    public var logLevel: String? = nil
}

/// The environment of the running command line.
public enum CLIContext {
    @TaskLocal public static var environment: (any CLIEnvironment)?

    static func current() throws -> any CLIEnvironment {
        guard let environment else { fatalError("the command line was started without its environment") }
        return environment
    }
}

/// Options every command takes: listed once, by `shelfmark --help` (hidden in subcommands' help).
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            t("cli.global.db"),
            valueName: "path"))
    var db: String?

    @Option(name: .customLong("database-url"), help: ArgumentHelp(t("cli.global.databaseURL"), valueName: "url"))
    var databaseURL: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(t("cli.global.json")))
    var json = false

    @Option(
        name: .customLong("countries-url"),
        help: ArgumentHelp(
            t("cli.global.countriesURL"), valueName: "url"))
    var countriesURL: String?

    @Option(
        name: .customLong("geo-url"),
        help: ArgumentHelp(
            t("cli.global.geoURL"), valueName: "url"))
    var geoURL: String?

    @Option(name: .customLong("geo-token"), help: ArgumentHelp(t("cli.global.geoToken"), valueName: "token"))
    var geoToken: String?

    @Option(
        name: .customLong("openlibrary-url"),
        help: ArgumentHelp(
            t("cli.global.openLibraryURL"), valueName: "url"))
    var openLibraryURL: String?

    @Option(
        name: .customLong("covers-url"),
        help: ArgumentHelp(
            t("cli.global.coversURL"), valueName: "url"))
    var coversURL: String?

    /// Read before parsing (`Speaking`), so help is already in it; declared so help lists it and parsing accepts it.
    @Option(name: .long, help: ArgumentHelp(t("cli.global.lang"), valueName: "en|fr"))
    var lang: String?

    var options: LibraryOptions {
        LibraryOptions(
            database: db, databaseURL: databaseURL, countriesURL: countriesURL, geoURL: geoURL, geoToken: geoToken,
            openLibraryURL: openLibraryURL, coversURL: coversURL)
    }

    func library(existing: Bool = false, diagnosing: Bool = false) async throws -> Library {
        var options = options
        options.mustExist = existing || diagnosing
        options.diagnosing = diagnosing
        return try await CLIContext.current().open(options)
    }

    /// The library and who the CLI acts as in it (the saved session's user, else the operator);
    /// `existing`: only a library that exists (a command that only reads it).
    func acting(existing: Bool = false, diagnosing: Bool = false) async throws -> (Library, Principal) {
        let library = try await library(existing: existing, diagnosing: diagnosing)
        return (library, try await SavedSession.principal(library))
    }
}
