import Foundation

/// A country: ISO 3166-1 alpha-2 code (upper case), English name, French name when known.
public struct Country: Equatable, Sendable, Codable {
    public let code: String
    public let name: String
    public let frenchName: String?
    public init(code: String, name: String, frenchName: String? = nil) {
        self.code = code.uppercased()
        self.name = name
        self.frenchName = frenchName
    }
}

/// The countries members may sign up from.
public protocol CountryDirectory: Sendable {
    /// Every country, sorted by English name.
    func all() async throws -> [Country]
    /// The country with this alpha-2 code (any case), or nil.
    func country(_ code: String) async throws -> Country?
}

/// Tells which country an IP address is in.
public protocol IPGeolocator: Sendable {
    /// The alpha-2 country code of an address, or nil when unknown. Never throws: failure is "unknown".
    func country(for ip: String) async -> String?
}

/// Keeps a country list fetched from elsewhere, so it is fetched once.
public protocol CountryListStore: Sendable {
    /// The stored list, or nil when none was stored yet.
    func load() async throws -> [Country]?
    /// Replaces the stored list.
    func save(_ countries: [Country]) async throws
}

/// The live country list cannot be had (its source is down, too slow or sends no list). A person
/// reads its catalogue message (`.upstreamUnavailable`); `detail` is for the log only.
public struct CountryListUnavailable: MessageConvertible, Equatable, Sendable {
    /// The technical cause (a library's error, a status): for the log, never shown to a person.
    public let detail: String
    /// Seconds after which asking again may succeed (`Retry-After`).
    public let retryAfter: TimeInterval
    public init(detail: String, retryAfter: TimeInterval = 30) {
        self.detail = detail
        self.retryAfter = retryAfter
    }
    public var message: Message { .upstreamUnavailable(.restCountries) }
}
