import Foundation
import Domain
import SQLiteStore

/// Everything the composition root needs to build a running library.
public struct ShelfmarkConfiguration: Sendable {
    /// The SQLite file; created on first use.
    public var databasePath: String
    public var durability: Durability = .full
    public var host = "127.0.0.1"
    public var port = 8080
    public var maxBodyBytes = 1 << 20
    /// How long a connection may stay idle, or take to send a request's head, before the server
    /// closes it (`$SHELFMARK_IDLE_TIMEOUT`, seconds).
    public var idleTimeout: TimeInterval = 30
    /// How long a request's body may take to arrive in full before its connection is closed
    /// (`$SHELFMARK_BODY_TIMEOUT`, seconds).
    public var bodyTimeout: TimeInterval = 60
    /// The most client connections served at once; more wait in the listen backlog
    /// (`$SHELFMARK_MAX_CONNECTIONS`). nil: what the open-file limit leaves room for.
    public var maxConnections: Int?
    /// bcrypt's cost factor (4...31); every step doubles the work.
    public var bcryptCost: UInt8 = 12
    /// Reverse proxies whose `X-Forwarded-For` is believed (`$SHELFMARK_TRUSTED_PROXIES`, comma-separated).
    public var trustedProxies: Set<String> = []
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
    /// Loan limit, period, renewals and the due-soon warning.
    public var loanPolicy = LoanPolicy()
    /// How often the notice scanner runs inside `serve` (`$SHELFMARK_NOTICE_INTERVAL`, seconds).
    public var noticeInterval: TimeInterval = 24 * 3600
    /// How long a login lasts unless logged out.
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// The chain key file and the anchors (`AnchorWriter.swift`).
    public var integrity = IntegritySettings()

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// `$SHELFMARK_DB`, else `$XDG_DATA_HOME/shelfmark/library.sqlite`, else `~/.local/share/shelfmark/library.sqlite`.
    public static func defaultDatabasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SHELFMARK_DB"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/shelfmark/library.sqlite"
    }

    /// Durability from `$SHELFMARK_SYNCHRONOUS` (full, normal, off); full when unset.
    static func durability(environment: [String: String]) throws -> Durability {
        guard let raw = environment["SHELFMARK_SYNCHRONOUS"], !raw.isEmpty else { return .full }
        guard let value = Durability(rawValue: raw.lowercased()) else {
            throw ConfigurationError("SHELFMARK_SYNCHRONOUS must be one of full, normal, off (not '\(raw)')")
        }
        return value
    }

    /// The configuration from command-line values (nil: not given) and the environment.
    public static func resolve(
        database: String?, countriesURL: String? = nil, geoURL: String? = nil, geoToken: String? = nil,
        openLibraryURL: String? = nil, coversURL: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ShelfmarkConfiguration {
        var configuration = ShelfmarkConfiguration(databasePath: database ?? defaultDatabasePath(environment: environment))
        func value(_ given: String?, _ name: String) -> String? { given ?? environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        configuration.countriesURL = value(countriesURL, "SHELFMARK_COUNTRIES_URL")
        configuration.geoURL = value(geoURL, "SHELFMARK_GEO_URL")
        configuration.geoToken = value(geoToken, "SHELFMARK_GEO_TOKEN")
        configuration.openLibraryURL = value(openLibraryURL, "SHELFMARK_OPENLIBRARY_URL") ?? configuration.openLibraryURL
        configuration.coversURL = value(coversURL, "SHELFMARK_COVERS_URL") ?? configuration.coversURL
        for url in [configuration.countriesURL, configuration.geoURL, configuration.openLibraryURL, configuration.coversURL].compactMap({ $0 })
        where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ConfigurationError("'\(url)' is not an http(s) base URL")
        }
        configuration.durability = try durability(environment: environment)
        configuration.integrity = try IntegritySettings.resolve(environment: environment)
        if let raw = environment["SHELFMARK_BCRYPT_COST"], !raw.isEmpty {
            guard let cost = UInt8(raw), (4...31).contains(cost) else {
                throw ConfigurationError("SHELFMARK_BCRYPT_COST must be a whole number from 4 to 31 (not '\(raw)')")
            }
            configuration.bcryptCost = cost
        }
        if let raw = environment["SHELFMARK_SESSION_DAYS"], !raw.isEmpty {
            guard let days = Double(raw), days > 0 else {
                throw ConfigurationError("SHELFMARK_SESSION_DAYS must be a positive number of days (not '\(raw)')")
            }
            configuration.sessionLifetime = days * 24 * 3600
        }
        try readLoanSettings(environment, into: &configuration)
        if let raw = environment["SHELFMARK_TRUSTED_PROXIES"] {
            configuration.trustedProxies = Set(raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        return configuration
    }
}

/// A configuration value that cannot be used, said in one line.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// `SHELFMARK_MAX_LOANS`, `SHELFMARK_LOAN_DAYS`, `SHELFMARK_MAX_RENEWALS`, `SHELFMARK_NOTICE_INTERVAL`,
/// `SHELFMARK_SEARCH_TTL`, `SHELFMARK_IDLE_TIMEOUT`, `SHELFMARK_BODY_TIMEOUT`, `SHELFMARK_MAX_CONNECTIONS`.
private func readLoanSettings(_ environment: [String: String], into configuration: inout ShelfmarkConfiguration) throws {
    func number(_ name: String) throws -> Double? {
        guard let raw = environment[name], !raw.isEmpty else { return nil }
        guard let value = Double(raw), value >= 0 else { throw ConfigurationError("\(name) must be a non-negative number (not '\(raw)')") }
        return value
    }
    if let value = try number("SHELFMARK_MAX_LOANS") { configuration.loanPolicy.maxActiveLoans = max(1, Int(value)) }
    if let value = try number("SHELFMARK_LOAN_DAYS") { configuration.loanPolicy.period = max(1, value) * 24 * 3600 }
    if let value = try number("SHELFMARK_MAX_RENEWALS") { configuration.loanPolicy.maxRenewals = Int(value) }
    if let value = try number("SHELFMARK_NOTICE_INTERVAL") { configuration.noticeInterval = max(1, value) }
    if let value = try number("SHELFMARK_SEARCH_TTL") { configuration.searchFreshFor = value }
    if let value = try number("SHELFMARK_IDLE_TIMEOUT") {
        guard value > 0 else { throw ConfigurationError("SHELFMARK_IDLE_TIMEOUT must be a positive number of seconds") }
        configuration.idleTimeout = value
    }
    if let value = try number("SHELFMARK_BODY_TIMEOUT") {
        guard value > 0 else { throw ConfigurationError("SHELFMARK_BODY_TIMEOUT must be a positive number of seconds") }
        configuration.bodyTimeout = value
    }
    if let value = try number("SHELFMARK_MAX_CONNECTIONS") {
        guard value >= 1 else { throw ConfigurationError("SHELFMARK_MAX_CONNECTIONS must be at least 1") }
        configuration.maxConnections = Int(value)
    }
}
