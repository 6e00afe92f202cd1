import Application
import Domain
import Foundation
import Monitoring
import PostgresStore
import SQLiteStore

/// Everything the composition root needs to build a running library.
public struct ShelfmarkConfiguration: Sendable {
    // MARK: Storage

    /// The SQLite file; created on first use.
    public var databasePath: String
    /// The option or variable that named the database (`--db`, `SHELFMARK_DB`), or nil for the
    /// default place. A named database's folder must exist: a typo makes no new, empty library.
    public var databaseNamedBy: String?
    /// The PostgreSQL database the library is kept in instead of the SQLite file, shared by every
    /// server of a library network (`--database-url`, `SHELFMARK_DATABASE_URL`); nil: SQLite. The
    /// chain key and the anchors stay beside `databasePath`, in the data folder.
    public var databaseURL: String?
    /// The option or variable that gave `databaseURL`.
    public var databaseURLNamedBy: String?
    /// How hard commits work to survive a power cut (`$SHELFMARK_SYNCHRONOUS`).
    public var durability: Durability = .full
    /// The chain key file and the anchors (`AnchorWriter.swift`).
    public var integrity = IntegritySettings()
    /// `serve`'s rotating backups (`BackupSettings.swift`).
    public var backups = BackupSettings()
    /// `serve`'s BitBooks protocol server, off unless a port is given (`BitBooksSettings.swift`).
    public var bitbooks = BitBooksSettings()
    /// Whether `serve` answers the Prolific apps under `/{key}/` even before any key exists
    /// (`serve --prolific`); without it, only while a live key exists.
    public var prolificForced = false

    // MARK: Serving HTTP

    /// Where `serve` listens.
    public var host = "127.0.0.1"
    public var port = 8080
    /// The largest request body.
    public var maxBodyBytes = 1 << 20
    /// The most body bytes all requests in flight may hold together (`$SHELFMARK_BODY_MEMORY`, MiB).
    public var bodyMemory = 32 << 20
    /// How long a connection may stay idle, or take to send a request's head, before the server
    /// closes it (`$SHELFMARK_IDLE_TIMEOUT`, seconds).
    public var idleTimeout: TimeInterval = 30
    /// How long a request's body may take to arrive in full before its connection is closed
    /// (`$SHELFMARK_BODY_TIMEOUT`, seconds).
    public var bodyTimeout: TimeInterval = 60
    /// The most client connections served at once; more wait in the listen backlog
    /// (`$SHELFMARK_MAX_CONNECTIONS`). nil: `defaultMaxConnections`, or fewer if the open-file
    /// limit leaves no room for them.
    public var maxConnections: Int?
    /// Reverse proxies whose `X-Forwarded-For` is believed (`$SHELFMARK_TRUSTED_PROXIES`, comma-separated).
    public var trustedProxies: Set<String> = []
    /// The web pages' cookies are always `Secure`: the site is reached over HTTPS only
    /// (`$SHELFMARK_SECURE_COOKIES`, true or false). When false they are `Secure` only for requests a
    /// trusted proxy says came over HTTPS.
    public var secureCookies = false
    /// The site's public address, for links to its pages shared elsewhere (`$SHELFMARK_PUBLIC_URL`);
    /// nil: the address each browser asked for.
    public var publicURL: String?
    /// Lets any client that sends it as a bearer token read `GET /metrics` (`$SHELFMARK_METRICS_TOKEN`,
    /// at least 16 characters); nil: only clients on this machine that no proxy forwarded.
    public var metricsToken: String?

    // MARK: Accounts

    /// bcrypt's cost factor (4...31); every step doubles the work.
    public var bcryptCost: UInt8 = 12
    /// How long a login lasts unless logged out.
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// Logins and signups one client address may attempt per minute (`$SHELFMARK_AUTH_ATTEMPTS`).
    public var authAttemptsPerMinute = 20
    /// Searches and changes one account may make per minute (`$SHELFMARK_SEARCH_RATE`,
    /// `$SHELFMARK_WRITE_RATE`), and one client address (`$SHELFMARK_ADDRESS_SEARCH_RATE`, `$SHELFMARK_ADDRESS_WRITE_RATE`).
    public var rates = RateSettings()

    // MARK: Circulation

    /// Loan limit, period, renewals and the due-soon warning.
    public var loanPolicy = LoanPolicy()
    /// How often the notice scanner runs inside `serve` (`$SHELFMARK_NOTICE_INTERVAL`, seconds).
    public var noticeInterval: TimeInterval = 24 * 3600

    // MARK: Outside services (all optional: without them the library works offline)

    /// REST Countries' base URL; nil uses the bundled ISO 3166-1 list (offline).
    public var countriesURL: String?
    /// IPinfo's base URL; nil means no geolocation (offline).
    public var geoURL: String?
    /// IPinfo's token, optional.
    public var geoToken: String?
    /// Open Library (`--openlibrary-url`, `$SHELFMARK_OPENLIBRARY_URL`) and its covers (`--covers-url`, `$SHELFMARK_COVERS_URL`).
    public var openLibraryURL = "https://openlibrary.org"
    public var coversURL = "https://covers.openlibrary.org"
    /// How long a search answer is fresh (`$SHELFMARK_SEARCH_TTL`, seconds; default a day).
    public var searchFreshFor: TimeInterval = 24 * 3600
    /// The most one Open Library search or import may take, retries included
    /// (`$SHELFMARK_OPENLIBRARY_DEADLINE`, seconds); then it is unavailable (or answered stale).
    public var openLibraryDeadline: TimeInterval = 6
    /// How long REST Countries and IPinfo may take to answer; nil: each adapter's own (5 s and 2 s).
    /// Tests on a loaded machine give their loopback fakes longer.
    public var lookupTimeout: TimeInterval?

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// Connections served at once unless configured: what the body budget and the memory of idle
    /// connections (about 20 KiB each) carry comfortably on a small server.
    public static let defaultMaxConnections = 1_024

    /// The connections to serve at once under a soft limit of `openFiles` descriptors: the
    /// configured number or the default, never more than the descriptors leave room for.
    public func connectionLimit(openFiles: Int?) -> Int {
        min(maxConnections ?? Self.defaultMaxConnections, OpenFiles.connectionBudget(limit: openFiles))
    }

    /// The file a symbolic link to an existing library names, where SQLite keeps its write-ahead log:
    /// the chain key, anchors, lock and backups go beside it too (found by an outside test: the key
    /// was looked for beside the link, and the library refused to open). Any other path as it is.
    static func followingLink(_ path: String) -> String {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil,
            FileManager.default.fileExists(atPath: path)
        else { return path }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// `$SHELFMARK_DB`, else `$XDG_DATA_HOME/shelfmark/library.sqlite`, else `~/.local/share/shelfmark/library.sqlite`.
    public static func defaultDatabasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SHELFMARK_DB"], !path.isEmpty { return path }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/shelfmark/library.sqlite"
    }

    /// Durability from `$SHELFMARK_SYNCHRONOUS` (full, normal, off); full when unset.
    static func durability(environment: [String: String]) throws -> Durability {
        guard let raw = environment["SHELFMARK_SYNCHRONOUS"], !raw.isEmpty else { return .full }
        guard let value = Durability(rawValue: raw.lowercased()) else {
            throw ConfigurationError("SHELFMARK_SYNCHRONOUS", value: raw, .notOneOf(["full", "normal", "off"]))
        }
        return value
    }

    static func secureCookies(environment: [String: String]) throws -> Bool {
        guard let raw = environment["SHELFMARK_SECURE_COOKIES"], !raw.isEmpty else { return false }
        switch raw.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ConfigurationError("SHELFMARK_SECURE_COOKIES", value: raw, .notOneOf(["true", "false"]))
        }
    }

    /// The configuration from command-line values (nil: not given) and the environment.
    public static func resolve(
        database: String?, databaseURL: String? = nil, countriesURL: String? = nil, geoURL: String? = nil, geoToken: String? = nil,
        openLibraryURL: String? = nil, coversURL: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ShelfmarkConfiguration {
        // An empty --db names no file (SQLite would open a private temporary database, and the lock file
        // would land in the current folder): refused in one line, as any unusable setting.
        if database?.isEmpty == true { throw ConfigurationError("--db", .tooShort(min: 1)) }
        var configuration = ShelfmarkConfiguration(databasePath: followingLink(database ?? defaultDatabasePath(environment: environment)))
        configuration.databaseNamedBy = database != nil ? "--db" : (environment["SHELFMARK_DB"] ?? "").isEmpty ? nil : "SHELFMARK_DB"
        func value(_ given: String?, _ name: String) -> String? { given ?? environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        configuration.databaseURL = value(databaseURL, "SHELFMARK_DATABASE_URL")
        if let url = configuration.databaseURL {
            let named = databaseURL != nil ? "--database-url" : "SHELFMARK_DATABASE_URL"
            configuration.databaseURLNamedBy = named
            guard (try? PostgresAddress(url)) != nil else { throw ConfigurationError(named, .notADatabaseURL) }
        }
        configuration.countriesURL = value(countriesURL, "SHELFMARK_COUNTRIES_URL")
        configuration.geoURL = value(geoURL, "SHELFMARK_GEO_URL")
        configuration.geoToken = value(geoToken, "SHELFMARK_GEO_TOKEN")
        configuration.openLibraryURL = value(openLibraryURL, "SHELFMARK_OPENLIBRARY_URL") ?? configuration.openLibraryURL
        configuration.coversURL = value(coversURL, "SHELFMARK_COVERS_URL") ?? configuration.coversURL
        // Each named as it was given: the option when there was one (found by an outside walk:
        // `--openlibrary-url file:///x` was refused naming the variable nobody had set).
        func named(_ option: String, _ given: String?, _ variable: String) -> String { given != nil ? option : variable }
        let urls = [
            (named("--countries-url", countriesURL, "SHELFMARK_COUNTRIES_URL"), configuration.countriesURL),
            (named("--geo-url", geoURL, "SHELFMARK_GEO_URL"), configuration.geoURL),
            (named("--openlibrary-url", openLibraryURL, "SHELFMARK_OPENLIBRARY_URL"), configuration.openLibraryURL),
            (named("--covers-url", coversURL, "SHELFMARK_COVERS_URL"), configuration.coversURL),
        ]
        for case (let name, let url?) in urls where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ConfigurationError(name, value: url, .notAWebAddress)
        }
        configuration.durability = try durability(environment: environment)
        configuration.secureCookies = try secureCookies(environment: environment)
        if let url = environment["SHELFMARK_PUBLIC_URL"], !url.isEmpty {
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
                throw ConfigurationError("SHELFMARK_PUBLIC_URL", value: url, .notAWebAddress)
            }
            configuration.publicURL = url
        }
        configuration.integrity = try IntegritySettings.resolve(environment: environment)
        configuration.backups = try BackupSettings.resolve(environment: environment)
        configuration.bitbooks = try BitBooksSettings.resolve(environment: environment)
        try readNumbers(environment, into: &configuration)
        configuration.trustedProxies = try readTrustedProxies(environment)
        configuration.metricsToken = try readMetricsToken(environment)
        return configuration
    }
}

/// Every numeric setting, read once and range-checked (`Settings`).
private func readNumbers(_ environment: [String: String], into configuration: inout ShelfmarkConfiguration) throws {
    if let cost = try Settings.bcryptCost.readInt(environment) { configuration.bcryptCost = UInt8(cost) }
    if let days = try Settings.sessionDays.read(environment) { configuration.sessionLifetime = days * 24 * 3600 }
    if let value = try Settings.maxLoans.readInt(environment) { configuration.loanPolicy.maxActiveLoans = value }
    configuration.loanPolicy.maxWalkInLoans =
        try Settings.maxWalkInLoans.readInt(environment) ?? configuration.loanPolicy.maxActiveLoans
    if let days = try Settings.loanDays.read(environment) { configuration.loanPolicy.period = days * 24 * 3600 }
    if let value = try Settings.maxRenewals.readInt(environment) { configuration.loanPolicy.maxRenewals = value }
    if let value = try Settings.maxHolds.readInt(environment) { configuration.loanPolicy.maxActiveHolds = value }
    if let days = try Settings.pickupDays.read(environment) { configuration.loanPolicy.pickupPeriod = days * 24 * 3600 }
    if let value = try Settings.noticeInterval.read(environment) { configuration.noticeInterval = value }
    if let value = try Settings.searchTTL.read(environment) { configuration.searchFreshFor = value }
    if let value = try Settings.openLibraryDeadline.read(environment) { configuration.openLibraryDeadline = value }
    if let value = try Settings.idleTimeout.read(environment) { configuration.idleTimeout = value }
    if let value = try Settings.bodyTimeout.read(environment) { configuration.bodyTimeout = value }
    if let value = try Settings.maxConnections.readInt(environment) { configuration.maxConnections = value }
    if let value = try Settings.bodyMemory.readInt(environment) { configuration.bodyMemory = value << 20 }
    if let value = try Settings.authAttempts.readInt(environment) { configuration.authAttemptsPerMinute = value }
    if let value = try Settings.searchRate.readInt(environment) { configuration.rates.searchesPerMinute = value }
    if let value = try Settings.writeRate.readInt(environment) { configuration.rates.writesPerMinute = value }
    if let value = try Settings.addressSearchRate.readInt(environment) { configuration.rates.addressSearchesPerMinute = value }
    if let value = try Settings.addressWriteRate.readInt(environment) { configuration.rates.addressWritesPerMinute = value }
}

/// `SHELFMARK_TRUSTED_PROXIES`: comma-separated IP addresses, each checked.
private func readTrustedProxies(_ environment: [String: String]) throws -> Set<String> {
    guard let raw = environment["SHELFMARK_TRUSTED_PROXIES"] else { return [] }
    let addresses = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    for address in addresses where !isIPAddress(address) {
        throw ConfigurationError("SHELFMARK_TRUSTED_PROXIES", .notAnIPAddress(address))
    }
    return Set(addresses)
}

/// Whether `text` is an IPv4 or IPv6 address as the operating system reads one.
private func isIPAddress(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
}

/// `SHELFMARK_METRICS_TOKEN`: at least `MetricsAccess.shortestToken` characters, none of them white
/// space or a control character. Never said back in a refusal: it is a secret.
private func readMetricsToken(_ environment: [String: String]) throws -> String? {
    guard let token = environment["SHELFMARK_METRICS_TOKEN"], !token.isEmpty else { return nil }
    if token.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
        throw ConfigurationError("SHELFMARK_METRICS_TOKEN", .containsSpaces)
    }
    if token.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        throw ConfigurationError("SHELFMARK_METRICS_TOKEN", .controlCharacters(allowingLineBreaks: false))
    }
    guard token.count >= MetricsAccess.shortestToken else {
        throw ConfigurationError("SHELFMARK_METRICS_TOKEN", .tooShort(min: MetricsAccess.shortestToken))
    }
    return token
}

extension ShelfmarkConfiguration {
    /// Refuses a database path naming something that is no file: a device, a pipe or a folder
    /// (`--db /dev/null`), before SQLite, the lock or a restore writes anything there or beside it
    /// (found by outside walks: `/dev/null.lock` was made, and a restore moved `/dev/null` aside).
    /// With `holdingALibrary` (a command that only reads one), or with a chain key beside it, an
    /// empty file is refused too: SQLite would take it for a new library, and a truncated library
    /// would verify, or be written to, as an empty one (found by outside walks). A restore, which
    /// replaces the file, says `replacing`: an emptied library is what it mends.
    func refuseDatabaseThatIsNoFile(holdingALibrary: Bool = false, replacing: Bool = false) throws {
        try refuseCompanionsThatAreNoFiles()
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: databasePath) else { return }
        let isFile = attributes[.type] as? FileAttributeType == .typeRegular
        let isEmpty = (attributes[.size] as? NSNumber)?.intValue == 0
        let keyed = !replacing && FileManager.default.fileExists(atPath: chainKeyPath)
        if !isFile || ((holdingALibrary || keyed) && isEmpty) {
            throw ConfigurationError(databaseNamedBy ?? "the database", .notALibraryFile(databasePath))
        }
    }

    /// Refuses a folder, pipe or device where the library keeps a file beside the database (its
    /// chain key, SQLite's `-wal`, `-shm` and journal, its anchors and lock): SQLite or the key's
    /// reader would fail on it later as an internal error (found by an outside walk: a pipe at
    /// `new.sqlite.key` or a folder at `new.sqlite-wal` made `migrate` exit 70).
    private func refuseCompanionsThatAreNoFiles() throws {
        guard let path = LibraryFiles.companionThatIsNoFile(of: databasePath, keyFile: chainKeyPath) else { return }
        let setting = path == chainKeyPath && integrity.chainKeyPath != nil ? "SHELFMARK_CHAIN_KEY" : databaseNamedBy ?? "the database"
        throw ConfigurationError(setting, .fileUnusable(path))
    }
}
