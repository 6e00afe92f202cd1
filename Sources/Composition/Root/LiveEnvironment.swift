import Application
import CLI
import Domain
import Foundation
import Hummingbird
import Logging
import Monitoring
import NIOCore
import NIOPosix
import Wording

/// The environment the real command line runs in.
struct LiveEnvironment: CLIEnvironment {
    let environment: [String: String]

    func open(_ options: LibraryOptions) async throws -> Library {
        let configuration = try configuration(options)
        let logger = try commandLogger()
        if configuration.databaseURL != nil {
            return try Bootstrap.library(try await Bootstrap.openStorage(configuration, logger: logger), configuration, logger: logger)
        }
        if options.mustExist {
            guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
                throw ConfigurationError(configuration.databaseNamedBy ?? "the database", .noLibrary(configuration.databasePath))
            }
            // An empty file too (the opening refuses a device, a pipe or a folder for every command).
            try configuration.refuseDatabaseThatIsNoFile(holdingALibrary: true)
        }
        let open = { try Bootstrap.openLibrary(configuration, logger: logger, diagnosing: options.diagnosing).0 }
        return try NewLibraryNote.noting(configuration.databasePath, open) { CommandLineNotes.libraryCreated(at: $0) }
    }

    /// The log of a command other than `serve`: errors only unless `LOG_LEVEL` asks for more, since
    /// a person reads the command's own one-line answer; `LOG_LEVEL=debug` adds the technical causes.
    func commandLogger() throws -> Logger {
        var settings = try LogSettings.resolve(format: nil, level: nil, environment: environment)
        if (environment["LOG_LEVEL"] ?? "").isEmpty { settings.level = .error }
        return settings.logger(label: "shelfmark")
    }

    func configuration(_ o: LibraryOptions) throws -> ShelfmarkConfiguration {
        try ShelfmarkConfiguration.resolve(
            database: o.database, databaseURL: o.databaseURL, countriesURL: o.countriesURL, geoURL: o.geoURL, geoToken: o.geoToken,
            openLibraryURL: o.openLibraryURL, coversURL: o.coversURL, environment: environment)
    }

    func restoring(_ options: LibraryOptions) throws -> RestoreLibrary {
        let configuration = try configuration(options)
        if let named = configuration.databaseURLNamedBy { throw ConfigurationError(named, .restoreOnPostgres) }
        try configuration.refuseDatabaseThatIsNoFile(replacing: true)
        return Bootstrap.restoreLibrary(configuration)
    }

    func migrate(_ options: LibraryOptions) async throws -> (location: String, applied: [String]) {
        try await StorageAdministration.migrate(try configuration(options), logger: try commandLogger())
    }

    func copy(from: String, to: String, _ options: LibraryOptions, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws
        -> Confirmation
    {
        try await StorageAdministration.copy(
            from: from, to: to, try configuration(options), logger: try commandLogger(), progress: progress)
    }

    func serve(_ options: ServeOptions) async throws {
        if let failure = ListenFailure.probe(host: options.host, port: options.port) { throw failure.configurationError }
        var configuration = try configuration(options.library)
        configuration.backups = try configuration.backups.overridden(
            every: options.backupEvery, keep: options.keep, folder: options.backupDir)
        try configuration.backups.prepareFolder(for: configuration.databasePath, named: options.backupDir != nil ? "--backup-dir" : nil)
        configuration.host = options.host
        configuration.prolificForced = options.prolific
        configuration.port = options.port
        configuration.bitbooks = configuration.bitbooks.overridden(port: options.bitbooksPort, host: options.bitbooksHost)
        // The HTTP server will hold its port: BitBooks on the same one could never listen, and would
        // be found out only once the library is open (found by an outside test).
        if let port = configuration.bitbooks.port, port == options.port, port != 0 {
            throw ListenFailure.bitbooks(.portInUse(host: configuration.bitbooks.host, port: port)).configurationError
        }
        if let failure = ListenFailure.probe(configuration.bitbooks) { throw failure.configurationError }
        let logger = try LogSettings.resolve(format: options.logFormat, level: options.logLevel, environment: environment)
            .logger(label: "shelfmark")
        configuration.maxConnections = configuration.connectionLimit(openFiles: OpenFiles.raiseSoftLimit())
        let monitor = Monitor()
        let storage: any LibraryStorage
        if configuration.databaseURL != nil {
            storage = try await Bootstrap.openStorage(configuration, logger: logger, metrics: monitor.factory)
        } else {
            storage = try NewLibraryNote.noting(configuration.databasePath) {
                try Bootstrap.openSQLite(configuration, metrics: monitor.factory)
            } created: { path in
                let catalogue = Wording(Language.fromLocale(environment) ?? .standard)
                logger.notice("\(catalogue.text(.done(.libraryCreated(path: path))))")
            }
        }
        let path = storage.location
        let log = logger
        let limits = "at most \(configuration.maxConnections!) connections, idle ones closed after \(configuration.idleTimeout) s"
        if let every = configuration.backups.interval {
            let folder = configuration.backups.folder(for: path)
            logger.info("backing up every \(DurationSetting.written(every)) into \(folder), keeping \(configuration.backups.keep)")
        }
        let app = try Bootstrap.buildApplication(configuration, storage: storage, monitor: monitor, logger: logger) { port in
            let site = "http://\(options.host):\(port)/"
            log.info("Shelfmark is serving \(site) (web pages; the API at /api/v1; database: \(path); \(limits))")
        }
        do {
            try await app.runService()
        } catch {
            // Taken between the probe and the server's own bind.
            guard let failure = ListenFailure.of(bitbooks: error) ?? ListenFailure.of(error, host: options.host, port: options.port) else {
                throw error
            }
            throw failure.configurationError
        }
    }
}

/// Entry point of the `shelfmark` executable.
public enum Shelfmark {
    /// Runs Swift concurrency's tasks on SwiftNIO's event loops, the threads that read and write
    /// the connections, so a request goes from its socket to its handler and back without a thread
    /// switch each way. Called first, on the main thread, before any task runs; false (and nothing
    /// changed) when another global executor was installed first.
    @discardableResult public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    public static func main() async {
        let environment = LiveEnvironment(environment: ProcessInfo.processInfo.environment)
        await CLIContext.$environment.withValue(environment) {
            await ShelfmarkCommand.main()
        }
    }
}
