import Application
import AsyncHTTPClient
import Foundation
import NIOCore

/// How Shelfmark talks to Open Library.
public struct OpenLibrarySettings: Sendable {
    public var baseURL = "https://openlibrary.org"
    public var coversURL = "https://covers.openlibrary.org"
    /// Sent in the User-Agent, as Open Library asks of API clients.
    public var contact = "shelfmark@example.org"
    public var version = "1.0"
    /// Deadline of one attempt, connection included.
    public var timeout: TimeAmount = .seconds(5)
    /// Retries after a timeout, a connection failure or a 5xx.
    public var maxRetries = 2
    public var retryBase: Duration = .milliseconds(200)
    /// Consecutive failures that open the breaker, and how long it stays open.
    public var breakerThreshold = 5
    public var breakerCooldown: Duration = .seconds(30)
    public init() {}
}

/// GETs JSON from Open Library with the manners it asks for: a User-Agent naming us, a deadline,
/// a few jittered retries on transient failures, and a circuit breaker that stops asking a dead
/// upstream for a while.
actor OpenLibraryHTTP {
    enum Failure: Error {
        /// 4xx other than 404 and 422; not worth retrying.
        case refused(Int)
        /// 422: Open Library finds the query unusable (too short).
        case unprocessable
        case notFound
        /// Unreachable, too slow or failing; the reason is for people, never a library's error text.
        case unavailable(String)

        /// What went wrong, in words a member can read.
        var reason: String {
            switch self {
            case .refused(let status): "it refused the request (HTTP \(status))"
            case .unprocessable: "it could not handle the request"
            case .notFound: "it has no such record"
            case .unavailable(let reason): reason
            }
        }
    }

    /// A transport error in words: the error's own text (errno, addresses) goes no further.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? HTTPClientError else { return "it could not be reached" }
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return "it did not answer in time"
        case .remoteConnectionClosed: return "it closed the connection before answering"
        default: return "it could not be reached"
        }
    }

    let settings: OpenLibrarySettings
    private let client: HTTPClient
    private var consecutiveFailures = 0
    private var openUntil: ContinuousClock.Instant?

    init(settings: OpenLibrarySettings, client: HTTPClient = .shared) {
        self.settings = settings
        self.client = client
    }

    func get(_ pathAndQuery: String) async throws(Failure) -> Data {
        if let openUntil, ContinuousClock.now < openUntil { throw .unavailable("too many recent failures; retrying later") }
        var lastReason = "no answer"
        for attempt in 0...settings.maxRetries {
            if attempt > 0 {
                let jitter = Double.random(in: 0.5...1.5)
                try? await Task.sleep(for: settings.retryBase * (Double(1 << (attempt - 1)) * jitter))
            }
            do {
                let data = try await fetch(pathAndQuery)
                consecutiveFailures = 0
                openUntil = nil
                return data
            } catch Failure.unavailable(let reason) {
                lastReason = reason
            } catch {
                consecutiveFailures = 0  // the upstream answered: it is alive
                throw error
            }
        }
        consecutiveFailures += 1
        if consecutiveFailures >= settings.breakerThreshold { openUntil = ContinuousClock.now + settings.breakerCooldown }
        throw .unavailable(lastReason)
    }

    private func fetch(_ pathAndQuery: String) async throws(Failure) -> Data {
        var request = HTTPClientRequest(url: settings.baseURL + pathAndQuery)
        request.headers.add(name: "User-Agent", value: "Shelfmark/\(settings.version) (\(settings.contact))")
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: settings.timeout)
            body = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw .unavailable(Self.reason(error))
        }
        switch response.status.code {
        case 200: return Data(body.readableBytesView)
        case 404: throw .notFound
        case 422: throw .unprocessable
        case 500...: throw .unavailable("HTTP \(response.status.code)")
        default: throw .refused(Int(response.status.code))
        }
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
