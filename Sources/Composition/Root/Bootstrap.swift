import Application
import CoreMetrics
import Countries
import Foundation
import HTTPAPI
import Hummingbird
import IPinfo
import LogChain
import Logging
import Monitoring
import OpenLibrary
import PostgresStore
import ProlificAPI
import RESTCountries
import SQLiteStore
import Security
import ServiceLifecycle
import Web

/// The composition root: the only code that names concrete adapters.
public enum Bootstrap {
    /// Opens the library's database (creating its file on first use, and its folder when it is the
    /// default place; a folder `--db` or `SHELFMARK_DB` names must exist) and wires the use cases. The outside-world adapters log their failures' technical causes to `logger` (none: not logged).
    /// The event store, the search cache and Open Library's clients record their metrics through `metrics` (none: not kept).
    public static func openLibrary(
        _ configuration: ShelfmarkConfiguration, clock: any WallClock = SystemClock(), ids: any IDGenerator = RandomIDs(),
        random: any RandomSource = SystemRandom(), logger: Logger? = nil, metrics: any MetricsFactory = NOOPMetricsHandler.instance,
        diagnosing: Bool = false
    ) throws -> (Library, LibraryDatabase) {
        let database = try openSQLite(configuration, metrics: metrics, diagnosing: diagnosing)
        return (try library(database, configuration, clock: clock, ids: ids, random: random, logger: logger, metrics: metrics), database)
    }

    /// The library's SQLite file, opened (see `openLibrary`). A log with an event that cannot be read
    /// (`LogUnreadable`) opens only when `diagnosing` (`audit verify`, `export`, `backup`), which read
    /// it to say what is wrong or to keep a copy; anything else (`serve`) stops with one line.
    static func openSQLite(_ configuration: ShelfmarkConfiguration, metrics: any MetricsFactory, diagnosing: Bool = false) throws
        -> LibraryDatabase
    {
        let folder = URL(fileURLWithPath: configuration.databasePath).deletingLastPathComponent()
        if let setting = configuration.databaseNamedBy, !FileManager.default.fileExists(atPath: folder.path) {
            throw ConfigurationError(setting, .folderMissing(folder.path))
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("the database", .folderUnusable(folder.path))
        }
        let existed = FileManager.default.fileExists(atPath: configuration.databasePath)
        try configuration.refuseDatabaseThatIsNoFile()
        let database: LibraryDatabase
        do {
            database = try LibraryDatabase(
                path: configuration.databasePath, durability: configuration.durability, keyFile: configuration.chainKeyPath,
                cipher: SwiftCryptoPersonalCipher(), metrics: metrics)
        } catch {
            // A library this open created is not left behind when the open fails (a key file that
            // cannot be made): the next run would find it and skip the note that it is new.
            if !existed {
                for suffix in ["", "-wal", "-shm", ".lock"] {
                    try? FileManager.default.removeItem(atPath: configuration.databasePath + suffix)
                }
            }
            throw Self.openingRefusal(error, configuration)
        }
        if database.readModelsRebuilt {
            Logger(label: "shelfmark").warning(
                "The read models did not fit the log (changed outside Shelfmark): they were rebuilt from it as the library opened.")
        }
        if let unreadable = database.unreadable, !diagnosing {
            try? database.close()
            throw unreadable
        }
        return database
    }

    /// What a failed open of the SQLite file is said as: a key file that is missing, unreadable or
    /// not one, or a file SQLite cannot read, is a setting that cannot be used; anything else as it is.
    static func openingRefusal(_ error: any Error, _ configuration: ShelfmarkConfiguration) -> any Error {
        if let error = error as? ChainKeyError { return ConfigurationError(error.message) }
        if LibraryDatabase.isReadOnlyFile(error) {
            return ConfigurationError(configuration.databaseNamedBy ?? "the database", .fileUnusable(configuration.databasePath))
        }
        guard LibraryDatabase.isUnreadableFile(error) else { return error }
        return ConfigurationError(configuration.databaseNamedBy ?? "the database", .notALibraryFile(configuration.databasePath))
    }

    /// The library's storage: the PostgreSQL database when a URL is configured (its schema created
    /// or upgraded), else the SQLite file. A server that cannot be reached, or refuses the user,
    /// password or database, is said in one line; the technical cause goes to `logger`.
    static func openStorage(
        _ configuration: ShelfmarkConfiguration, logger: Logger?, metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) async throws -> any LibraryStorage {
        guard let url = configuration.databaseURL else { return try openSQLite(configuration, metrics: metrics) }
        let named = configuration.databaseURLNamedBy ?? "SHELFMARK_DATABASE_URL"
        guard let address = try? PostgresAddress(url) else { throw ConfigurationError(named, .notADatabaseURL) }
        // The key's folder, and the data folder where anchors are written (found by an outside test:
        // a server whose data folder did not exist yet failed to write every anchor).
        for file in [configuration.chainKeyPath, configuration.anchorPath] {
            try? FileManager.default.createDirectory(
                at: URL(fileURLWithPath: file).deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        return try await openPostgres(address, named: named, keyFile: configuration.chainKeyPath, logger: logger, metrics: metrics)
    }

    /// The PostgreSQL library at `address` (the setting `named` gave it), chained with the key in
    /// `keyFile` (none: unkeyed); a server that cannot be used is said in one line.
    static func openPostgres(
        _ address: PostgresAddress, named: String, keyFile: String?, logger: Logger?,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) async throws -> PostgresLibrary {
        do {
            return try await PostgresLibrary.open(
                address, keyFile: keyFile, cipher: SwiftCryptoPersonalCipher(), logger: logger ?? Logger(label: "shelfmark.postgres"),
                metrics: metrics)
        } catch let error as PostgresUnavailable {
            logger?.error("PostgreSQL at \(address): \(error.cause)")
            throw ConfigurationError(named, .databaseUnreachable(address.description))
        }
    }

    /// Wires the use cases over a library's storage.
    static func library(
        _ database: any LibraryStorage, _ configuration: ShelfmarkConfiguration, clock: any WallClock = SystemClock(),
        ids: any IDGenerator = RandomIDs(), random: any RandomSource = SystemRandom(), logger: Logger? = nil,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) throws -> Library {
        let runner = CommandRunner(store: database.events, clock: clock, ids: ids, random: random)
        var settings = AccountSettings()
        settings.sessionLifetime = configuration.sessionLifetime
        settings.attempts = AttemptRate(burst: configuration.authAttemptsPerMinute, perMinute: Double(configuration.authAttemptsPerMinute))
        let accounts = AccountDependencies(
            runner: runner, hasher: BcryptPasswordHasher(cost: configuration.bcryptCost), tokens: RandomSessionTokens(),
            resetCodes: RandomResetCodes(), accounts: database.accountsReadModel, countries: try countries(configuration, database),
            geolocator: CachedGeolocator(geolocator(configuration), clock: clock),
            loginFailures: database.failures, settings: settings)
        let search = SearchBooks(
            search: OpenLibrarySearch(
                settings: openLibrarySettings(configuration), client: OutboundHTTP.client, logger: logger, metrics: metrics),
            cache: database.cache, clock: clock, settings: searchSettings(configuration))
        let catalogue = CatalogueUseCases(
            runner: runner, catalogue: database.catalogueReadModel, loans: database.loanRegister, policy: configuration.loanPolicy)
        return Library(
            catalogue: catalogue,
            accounts: AccountUseCases(accounts),
            circulation: CirculationUseCases(
                CirculationDependencies(
                    runner: runner, loans: database.loanRegister, notices: database.loanRegister, holds: database.holdRegister,
                    accounts: database.accountsReadModel, policy: configuration.loanPolicy)),
            search: search,
            bookmarks: Bookmarks(
                runner: runner, search: search, catalogue: database.catalogueReadModel,
                shelf: database.shelf(coversURL: openLibrarySettings(configuration).coversURL)),
            importBook: ImportBook(
                lookup: OpenLibraryLookup(
                    settings: openLibrarySettings(configuration), client: OutboundHTTP.client, logger: logger, metrics: metrics),
                addBook: catalogue.addBook),
            verifyLog: VerifyLog(verifier: database, clock: clock, anchorFile: configuration.anchorPath),
            exportLog: ExportLog(archive: database), replayer: database.replayer,
            health: database, readModels: database, backup: database.backup,
            appKeys: AppKeyDependencies(
                runner: runner, tokens: RandomSessionTokens(), accounts: database.accountsReadModel, register: database.appKeyRegister),
            numbers: database.numbers, retries: SafeRetries(runner: runner, receipts: database.receipts),
            rates: RequestRates(settings: configuration.rates, clock: clock))
    }

    /// REST Countries (kept in the database) when a URL is configured, else the bundled list.
    static func countries(_ configuration: ShelfmarkConfiguration, _ database: any LibraryStorage) throws -> any CountryDirectory {
        guard let url = configuration.countriesURL else { return try BundledCountryDirectory() }
        guard let timeout = configuration.lookupTimeout else {
            return RESTCountriesDirectory(baseURL: url, store: database.countries, client: OutboundHTTP.client)
        }
        return RESTCountriesDirectory(
            baseURL: url, store: database.countries, client: OutboundHTTP.client, timeout: .milliseconds(Int64(timeout * 1000)))
    }

    static func openLibrarySettings(_ configuration: ShelfmarkConfiguration) -> OpenLibrarySettings {
        var settings = OpenLibrarySettings()
        settings.baseURL =
            configuration.openLibraryURL.hasSuffix("/") ? String(configuration.openLibraryURL.dropLast()) : configuration.openLibraryURL
        settings.coversURL = configuration.coversURL.hasSuffix("/") ? String(configuration.coversURL.dropLast()) : configuration.coversURL
        settings.deadline = .milliseconds(Int64(configuration.openLibraryDeadline * 1000))
        return settings
    }

    static func searchSettings(_ configuration: ShelfmarkConfiguration) -> SearchSettings {
        var settings = SearchSettings()
        settings.freshFor = configuration.searchFreshFor
        return settings
    }

    /// IPinfo when a URL is configured, else no geolocation.
    static func geolocator(_ configuration: ShelfmarkConfiguration) -> any IPGeolocator {
        guard let url = configuration.geoURL else { return NoGeolocation() }
        guard let timeout = configuration.lookupTimeout else {
            return IPinfoGeolocator(baseURL: url, token: configuration.geoToken, client: OutboundHTTP.client)
        }
        return IPinfoGeolocator(
            baseURL: url, token: configuration.geoToken, client: OutboundHTTP.client, timeout: .milliseconds(Int64(timeout * 1000)))
    }

    /// The HTTP application on the configuration's SQLite file, built the same way for `serve` and for tests.
    public static func buildApplication(
        _ configuration: ShelfmarkConfiguration, clock: any WallClock = SystemClock(), ids: any IDGenerator = RandomIDs(),
        logger: Logger = Logger(label: "shelfmark"), onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let monitor = Monitor()
        return try buildApplication(
            configuration, storage: try openSQLite(configuration, metrics: monitor.factory), monitor: monitor, clock: clock, ids: ids,
            logger: logger, onServerRunning: onServerRunning)
    }

    /// The HTTP application on a library's storage, closed when the server stops.
    static func buildApplication(
        _ configuration: ShelfmarkConfiguration, storage database: any LibraryStorage, monitor: Monitor,
        clock: any WallClock = SystemClock(),
        ids: any IDGenerator = RandomIDs(), logger: Logger = Logger(label: "shelfmark"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let library = try library(database, configuration, clock: clock, ids: ids, logger: logger, metrics: monitor.factory)
        let bodies = BodyLimits(
            maxBytes: configuration.maxBodyBytes, inFlightBytes: configuration.bodyMemory,
            timeout: .milliseconds(Int64(configuration.bodyTimeout * 1000)))
        let api = try HTTPServer.router(library: library, bodies: bodies, trustedProxies: configuration.trustedProxies)
        var web = WebSettings(secureCookies: configuration.secureCookies, trustedProxies: configuration.trustedProxies)
        web.sessionLifetime = configuration.sessionLifetime
        web.publicURL = configuration.publicURL
        let pages = try WebSite.router(library: library, settings: web, context: LibraryRequestContext.self)
        let maxConnections = configuration.connectionLimit(openFiles: OpenFiles.softLimit())
        return Application(
            responder: AccessLog(
                MonitoredResponder(
                    SiteResponder(
                        api: api.buildResponder(), pages: pages.buildResponder(),
                        prolific: ProlificMount(
                            responder: ProlificAPI.responder(library: library, context: LibraryRequestContext.self),
                            forced: configuration.prolificForced, keys: library.appKeys.inUse)),
                    monitor: monitor, access: MetricsAccess(token: configuration.metricsToken),
                    status: ReadLibraryStatus(loans: database.loanRegister, head: database, projections: database, clock: clock)),
                // Its own source: request ids are not the events' (tests give those in sequence).
                trustedProxies: configuration.trustedProxies, ids: RandomIDs()),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: HTTPServer.channelHandlers(),
                    idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "Shelfmark",
                availableConnectionsDelegate: .maximum(maxConnections, logger: logger)),
            services: [
                DatabaseCloser(database: database, logger: logger),
                AnchorWriter(verifyLog: library.verifyLog, interval: configuration.integrity.anchorInterval, logger: logger),
                NoticeScanner(scan: library.circulation.scan, interval: configuration.noticeInterval, logger: logger),
            ] + BackupWriter.services(configuration, library: library, clock: clock, logger: logger)
                + BitBooksSettings.services(configuration, library: library, logger: logger),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}

/// Closes the database once the server has stopped (services shut down in reverse order).
struct DatabaseCloser: Service {
    let database: any LibraryStorage
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        try await database.shutDown()
        logger.info("database closed")
    }
}

/// Issues due-soon and overdue notices at start-up, then every `interval`; stops on shutdown.
/// It reads the time from the clock port through the use case, never from the system itself.
struct NoticeScanner: Service {
    let scan: ScanNotices
    let interval: TimeInterval
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let issued = try await scan.execute(by: .system)
                    if issued > 0 { logger.info("issued \(issued) loan notices") }
                } catch {
                    logger.error("notice scan failed: \(error)")
                }
                try await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
