import Foundation

/// How often one account and one client address may search and change things, per minute (a
/// burst of as many, then that rate). An address may do more than an account, since a library's
/// own network puts many members behind one address.
public struct RateSettings: Equatable, Sendable {
    public var searchesPerMinute = 300
    public var writesPerMinute = 120
    public var addressSearchesPerMinute = 3_000
    public var addressWritesPerMinute = 1_200

    /// No limit a test's load could meet (a million a minute).
    public static let unlimited: RateSettings = {
        var settings = RateSettings()
        (settings.searchesPerMinute, settings.writesPerMinute) = (1_000_000, 1_000_000)
        (settings.addressSearchesPerMinute, settings.addressWritesPerMinute) = (1_000_000, 1_000_000)
        return settings
    }()

    public init() {}
}

/// The kinds of request a rate limits: searches (the catalogue's and Open Library's) and changes.
public enum RatedRequest: Sendable, CaseIterable {
    case search, write

    /// What a request to run `operation` counts as: a change when it may change something (any
    /// method but a read), else a search when it searches Open Library or the catalogue with a
    /// query (`searching`); nil when no rate limits it (reading a book, a list, an account).
    public static func of(_ operation: LibraryOperation, changes: Bool, searching: Bool = false) -> RatedRequest? {
        if changes { return .write }
        return operation == .searchOpenLibrary || (operation == .listBooks && searching) ? .search : nil
    }
}

/// What the tighter of a request's buckets allows: the answer's `RateLimit-*` headers.
public struct RateAllowance: Equatable, Sendable {
    /// The bucket's size (requests in a burst).
    public let limit: Int
    public let remaining: Int
    /// Whole seconds until the bucket is full again.
    public let resetSeconds: Int

    /// The allowance as the HTTP adapters answer it: the three fields of the IETF draft's
    /// `RateLimit` headers (the bucket's size, what is left, seconds until it is full).
    public var fields: [(name: String, value: String)] {
        [("RateLimit-Limit", String(limit)), ("RateLimit-Remaining", String(remaining)), ("RateLimit-Reset", String(resetSeconds))]
    }

    public init(limit: Int, remaining: Int, resetSeconds: Int) {
        self.limit = limit
        self.remaining = remaining
        self.resetSeconds = resetSeconds
    }
}

/// A client asked too often: nothing was done.
public struct RateLimited: MessageConvertible, Equatable, Sendable {
    /// Seconds until the next request of this kind may go ahead.
    public let retryAfter: TimeInterval
    /// The tighter bucket, empty.
    public let allowance: RateAllowance
    public var message: Message { .rateLimited(retryAfterSeconds: Int(min(retryAfter, 86_400).rounded(.up))) }
}

/// Token buckets per client address and per account for searches and for changes, in memory, so
/// that one misbehaving client cannot starve the library. Time from the clock port.
public struct RequestRates: Sendable {
    let clock: any WallClock
    private let buckets: [RatedRequest: (address: TokenBuckets, account: TokenBuckets)]

    public init(settings: RateSettings, clock: any WallClock) {
        self.clock = clock
        var buckets: [RatedRequest: (address: TokenBuckets, account: TokenBuckets)] = [:]
        for kind in RatedRequest.allCases {
            let (account, address) =
                kind == .search
                ? (settings.searchesPerMinute, settings.addressSearchesPerMinute)
                : (settings.writesPerMinute, settings.addressWritesPerMinute)
            buckets[kind] = (
                TokenBuckets(rate: AttemptRate(burst: address, perMinute: Double(address))),
                TokenBuckets(rate: AttemptRate(burst: account, perMinute: Double(account)))
            )
        }
        self.buckets = buckets
    }

    /// Takes a token from the client address's bucket and, for a signed-in caller, the account's:
    /// what the tighter one allows, or `RateLimited` when either is empty. The command line and
    /// the server's own work are not limited.
    public func admit(_ kind: RatedRequest, client: String?, by principal: Principal) throws(RateLimited) -> RateAllowance? {
        guard let (address, account) = buckets[kind] else { return nil }
        let now = clock.now()
        var taken: [(TokenBuckets.Admission, Int)] = []
        if let client { taken.append((address.admit(client, now: now), address.burst)) }
        switch principal {
        case .user(let id, _, _): taken.append((account.admit(id.description, now: now), account.burst))
        case .anonymous: break
        case .cliOperator, .system: return nil
        }
        // A refusal waits for the longest wait; an admission reports the fewest requests left.
        let refused = taken.filter { $0.0.wait != nil }.max { $0.0.wait! < $1.0.wait! }
        guard let tightest = refused ?? taken.min(by: { $0.0.remaining < $1.0.remaining }) else { return nil }
        let allowance = RateAllowance(
            limit: tightest.1, remaining: tightest.0.remaining, resetSeconds: Self.seconds(tightest.0.untilFull))
        if let wait = tightest.0.wait { throw RateLimited(retryAfter: wait, allowance: allowance) }
        return allowance
    }

    private static func seconds(_ interval: TimeInterval) -> Int { max(0, Int(min(interval, 86_400).rounded(.up))) }
}
