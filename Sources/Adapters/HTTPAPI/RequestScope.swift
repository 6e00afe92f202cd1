import Application
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the library's router: Hummingbird's core storage, the peer address and
/// the connection (closed when a request body takes too long).
public struct LibraryRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// What the middleware learnt about the caller, for the generated handlers (which only see their input).
enum RequestScope {
    @TaskLocal static var principal: Principal = .anonymous
    @TaskLocal static var clientIP: String?
}

/// Authenticates `Authorization: Bearer <token>` through the use case and tells the handlers who
/// calls and from where. A token that is unknown, expired or logged out is refused with a 401 at
/// once; no header means anonymous.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = LibraryRequestContext
    let authenticate: Authenticate
    /// Peers whose `X-Forwarded-For` is believed (reverse proxies).
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var principal = Principal.anonymous
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("bearer ") else { throw Unauthenticated() }
            principal = try await authenticate.execute(token: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        }
        let ip = clientIP(request, peer: context.remoteAddress?.ipAddress)
        return try await RequestScope.$principal.withValue(principal) {
            try await RequestScope.$clientIP.withValue(ip) { try await next(request, context) }
        }
    }

    /// The peer, or, when the peer is a trusted proxy, the right-most forwarded address that is not.
    func clientIP(_ request: Request, peer: String?) -> String? {
        guard let peer, trustedProxies.contains(peer), let forwarded = request.headers[.xForwardedFor] else { return peer }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.last { !trustedProxies.contains($0) } ?? peer
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
