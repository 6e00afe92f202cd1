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

        /// What a caller says of it when it is not a 404 or a 422.
        var trouble: SearchUnavailable {
            switch self {
            case .notFound: SearchUnavailable(.failing, detail: "HTTP 404")
            case .unprocessable: SearchUnavailable(.failing, detail: "HTTP 422")
            case .refused(let status): SearchUnavailable(.failing, detail: "HTTP \(status)")
            case .unavailable(let trouble): trouble
            }
        }
    }

    let settings: OpenLibrarySettings
    private let client: HTTPClient
    private let logger: Logger
    private let metrics: UpstreamMetrics
    private var consecutiveFailures = 0
    private var openUntil: ContinuousClock.Instant?

    init(settings: OpenLibrarySettings, client: HTTPClient = .shared, logger: Logger, metrics: UpstreamMetrics) {
        self.settings = settings
        self.client = client
        self.logger = logger
        self.metrics = metrics
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
        } catch .unavailable(let trouble) {
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

    /// One attempt, body included, within `timeout`.
    private func fetch(_ pathAndQuery: String, timeout: Duration) async throws(Failure) -> Data {
        let (client, request) = (client, request(pathAndQuery))
        let answer: (status: UInt, body: ByteBuffer)
        do {
            answer = try await withTimeLimit(timeout) {
                let response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
                return (response.status.code, try await response.body.collect(upTo: 16 << 20))
            }
        } catch {
            logger.debug("Open Library attempt failed", metadata: ["path": "\(pathAndQuery.prefix(200))", "error": "\(error)"])
            throw .unavailable(Self.trouble(error))
        }
        switch answer.status {
        case 200: return Data(answer.body.readableBytesView)
        case 404: throw .notFound
        case 422: throw .unprocessable
        case 500...: throw .unavailable(SearchUnavailable(.failing, detail: "HTTP \(answer.status)"))
        default: throw .refused(status: answer.status)
        }
    }

    private func request(_ pathAndQuery: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: settings.baseURL + pathAndQuery)
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
