import Application
import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging
import NIOCore

/// How Shelfmark talks to Open Library.
public struct OpenLibrarySettings: Sendable {
    public var baseURL = "https://openlibrary.org"
    public var coversURL = "https://covers.openlibrary.org"
    /// Sent in the User-Agent, as Open Library asks of API clients.
    public var contact = "shelfmark@example.org"
    public var version = "1.0"
    /// The most one search or one import may take, every request and retry included.
    public var deadline: Duration = .seconds(6)
    /// The most one attempt may take, connection and body included (less when the deadline is nearer).
    public var timeout: Duration = .seconds(5)
    /// Retries after a timeout, a connection failure or a 5xx, while the deadline leaves time.
    public var maxRetries = 2
    public var retryBase: Duration = .milliseconds(200)
    /// Consecutive failures that open the breaker, and how long it stays open.
    public var breakerThreshold = 5
    public var breakerCooldown: Duration = .seconds(30)
    public init() {}

    var attempts: Attempts { Attempts(timeout: timeout, retries: maxRetries, retryBase: retryBase) }
}

/// GETs JSON from Open Library with the manners it asks for: a User-Agent naming us, one deadline
/// for every attempt of a call, a few jittered retries on transient failures, and a circuit
/// breaker that stops asking a dead upstream for a while. What went wrong technically goes to the
/// log; callers get a `SearchUnavailable` whose message a person can read.
actor OpenLibraryHTTP {
    enum Failure: Error {
        /// 404.
        case notFound
        /// 422: Open Library finds the query unusable (too short).
        case unprocessable
        /// Another 4xx: asking again would get the same answer.
        case refused(status: UInt)
        /// Unreachable, too slow or failing: worth another attempt.
        case unavailable(SearchUnavailable)
        /// 429: not asked again until its `Retry-After` has passed (the breaker opens for that long).
        case rateLimited(SearchUnavailable)
        /// An answer asking again would bring again: past `largestBody`, or redirected away from
        /// Open Library's address or round in circles (not retried: an outside walk saw a loop
        /// cost fifteen requests an import).
        case unusable(SearchUnavailable)

        /// What a caller says of it when it is not a 404 or a 422.
        var trouble: SearchUnavailable {
            switch self {
            case .notFound: SearchUnavailable(.failing, detail: "HTTP 404")
            case .unprocessable: SearchUnavailable(.failing, detail: "HTTP 422")
            case .refused(let status): SearchUnavailable(.failing, detail: "HTTP \(status)")
            case .unavailable(let trouble), .rateLimited(let trouble), .unusable(let trouble): trouble
            }
        }
    }

    let settings: OpenLibrarySettings
    private let client: HTTPClient
    /// Where what went wrong technically is written.
    let logger: Logger
    private let metrics: UpstreamMetrics
    private var consecutiveFailures = 0
    private var openUntil: ContinuousClock.Instant?

    init(settings: OpenLibrarySettings, client: HTTPClient = .shared, logger: Logger, metrics: UpstreamMetrics) {
        self.settings = settings
        self.client = client
        self.logger = logger
        self.metrics = metrics
    }

    /// `trouble`, once logged: an answer that came but could not be read.
    nonisolated func unreadable(_ trouble: SearchUnavailable) -> SearchUnavailable {
        logger.warning("Open Library failed", metadata: ["cause": "\(trouble.cause)", "detail": "\(trouble.detail.prefix(500))"])
        return trouble
    }

    /// The instant a call starting now must be done by.
    nonisolated func deadline() -> ContinuousClock.Instant { .now + settings.deadline }

    /// The body of `pathAndQuery`, asked until `deadline` at the latest.
    func get(_ pathAndQuery: String, until deadline: ContinuousClock.Instant) async throws(Failure) -> Data {
        if let openUntil, ContinuousClock.now < openUntil {
            let seconds = Double(ContinuousClock.now.duration(to: openUntil).components.seconds + 1)
            metrics.count(.breakerOpen)
            throw .unavailable(SearchUnavailable(.resting, detail: "the circuit breaker is open", retryAfter: seconds))
        }
        metrics.breaker(open: false)
        do {
            let data = try await settings.attempts.run(until: deadline, on: ContinuousClock()) { timeout throws(Failure) in
                try await fetch(pathAndQuery, timeout: timeout)
            }
            consecutiveFailures = 0
            openUntil = nil
            metrics.count(.ok)
            return data
        } catch .rateLimited(let trouble) {
            openUntil = ContinuousClock.now + .seconds(trouble.retryAfter)
            metrics.count(.failed)
            metrics.breaker(open: true)
            logger.warning(
                "Open Library asks us to wait",
                metadata: ["path": "\(pathAndQuery.prefix(200))", "seconds": "\(Int(trouble.retryAfter))"])
            throw .rateLimited(trouble)
        } catch .unavailable(let trouble), .unusable(let trouble) {
            consecutiveFailures += 1
            metrics.count(.failed)
            if consecutiveFailures >= settings.breakerThreshold {
                openUntil = ContinuousClock.now + settings.breakerCooldown
                metrics.breaker(open: true)
            }
            logger.warning(
                "Open Library failed",
                metadata: ["path": "\(pathAndQuery.prefix(200))", "cause": "\(trouble.cause)", "detail": "\(trouble.detail)"])
            throw .unavailable(trouble)
        } catch {
            consecutiveFailures = 0  // the upstream answered: it is alive
            metrics.count(.refused)
            throw error
        }
    }

    /// One attempt, body included, within `timeout`. A redirect is followed (Open Library sends
    /// `/isbn/….json` on to its edition) only to the base URL's own scheme, host and port, a few
    /// times at most: an outside walk had a search redirected to a loopback address, whose answer
    /// the server showed. (The client given must not follow redirects itself: `OpenLibraryClient.noRedirects`.)
    private func fetch(_ pathAndQuery: String, timeout: Duration) async throws(Failure) -> Data {
        var url = settings.baseURL + pathAndQuery
        for _ in 0..<5 {
            let (client, request) = (client, request(url))
            let answer: (status: UInt, body: ByteBuffer, location: String?, retryAfter: String?)
            do {
                answer = try await withTimeLimit(timeout) {
                    let response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
                    let headers = response.headers
                    return (
                        response.status.code, try await response.body.collect(upTo: Self.largestBody), headers.first(name: "location"),
                        headers.first(name: "retry-after")
                    )
                }
            } catch is NIOTooManyBytesError {
                throw .unusable(SearchUnavailable(.unreadable, detail: "an answer past \(Self.largestBody) bytes"))
            } catch {
                logger.debug("Open Library attempt failed", metadata: ["path": "\(pathAndQuery.prefix(200))", "error": "\(error)"])
                throw .unavailable(Self.trouble(error))
            }
            if [301, 302, 303, 307, 308].contains(answer.status) {
                guard let next = answer.location.flatMap({ Self.sameOrigin($0, from: url, as: settings.baseURL) }) else {
                    let detail = "HTTP \(answer.status) to \(answer.location?.prefix(200) ?? "nowhere"), not Open Library's address"
                    throw .unusable(SearchUnavailable(.failing, detail: detail))
                }
                url = next
                continue
            }
            return try Self.body(answer.status, answer.body, retryAfter: answer.retryAfter)
        }
        throw .unusable(SearchUnavailable(.failing, detail: "more than 4 redirects"))
    }

    /// The largest answer read: a search of 100 hits with the fields asked for is well under a
    /// megabyte, and an outside walk's 12 searches answered with 13 MB each took 550 MB at once.
    static let largestBody = 4 << 20

    /// `location`, read against `current`, when it has the scheme, host and port of `base`.
    static func sameOrigin(_ location: String, from current: String, as base: String) -> String? {
        guard let origin = URLComponents(string: base), let next = URL(string: location, relativeTo: URL(string: current)),
            let resolved = URLComponents(url: next.absoluteURL, resolvingAgainstBaseURL: true),
            resolved.scheme?.lowercased() == origin.scheme?.lowercased(), resolved.host?.lowercased() == origin.host?.lowercased(),
            resolved.port == origin.port, resolved.user == nil, resolved.password == nil
        else { return nil }
        return next.absoluteString
    }

    /// The body of a final answer, or the failure its status is.
    private static func body(_ status: UInt, _ body: ByteBuffer, retryAfter: String?) throws(Failure) -> Data {
        switch status {
        case 200: return Data(body.readableBytesView)
        case 404: throw .notFound
        case 429: throw .rateLimited(SearchUnavailable(.resting, detail: "HTTP 429", retryAfter: Self.wait(retryAfter)))
        case 422: throw .unprocessable
        case 500...: throw .unavailable(SearchUnavailable(.failing, detail: "HTTP \(status)"))
        default: throw .refused(status: status)
        }
    }

    /// A 429's `Retry-After` in seconds (1 to 3,600; an HTTP date or nothing: the default wait).
    static func wait(_ retryAfter: String?) -> TimeInterval {
        guard let seconds = retryAfter.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            return SearchUnavailable.defaultRetryAfter
        }
        return TimeInterval(min(max(seconds, 1), 3_600))
    }

    private func request(_ url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "Shelfmark/\(settings.version) (\(settings.contact))")
        request.headers.add(name: "Accept", value: "application/json")
        return request
    }

    /// A transport error as the kind of trouble it is, its own text kept for the log.
    static func trouble(_ error: any Error) -> SearchUnavailable {
        let detail = String(describing: error)
        if error is TimeLimitExceeded { return SearchUnavailable(.tooSlow, detail: detail) }
        guard let error = error as? HTTPClientError else { return SearchUnavailable(.unreachable, detail: detail) }
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return SearchUnavailable(.tooSlow, detail: detail)
        default: return SearchUnavailable(.unreachable, detail: detail)
        }
    }
}

/// The HTTP client Open Library's adapters use unless given one.
public enum OpenLibraryClient {
    /// A client that leaves redirects to the adapter, which follows only Open Library's own.
    public static let noRedirects: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}

extension Logger {
    /// Drops everything.
    static let silent = Logger(label: "shelfmark.openlibrary") { _ in SwiftLogNoOpLogHandler() }
}

extension Duration {
    /// The whole nanoseconds, for NIO's `TimeAmount`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension String {
    /// Percent-encoded for a query value.
    var queryEncoded: String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return addingPercentEncoding(withAllowedCharacters: allowed) ?? self
    }
}
