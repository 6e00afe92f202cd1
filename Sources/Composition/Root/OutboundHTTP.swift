import AsyncHTTPClient
import NIOCore

/// The one HTTP client of the outside-world adapters (Open Library, REST Countries, IPinfo):
/// connections time out after 2 s and a refused connection fails at once instead of being
/// retried until the request's deadline (AsyncHTTPClient's default), so a dead upstream
/// answers "unreachable" quickly. It follows no redirect: Open Library's adapter follows those to
/// its own address only, and a redirect from the others is a failure. It lives as long as the process, like `HTTPClient.shared`.
enum OutboundHTTP {
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(2)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.httpVersion = .http1Only
        // A redirect is an answer the adapter reads: Open Library's follows only its own host's.
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
