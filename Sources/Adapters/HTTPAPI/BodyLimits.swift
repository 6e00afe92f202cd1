import APIContract
import Application
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// How much request body the server reads, and for how long.
public struct BodyLimits: Sendable {
    /// The largest body one request may send.
    public var maxBytes = 1 << 20
    /// The most body bytes all requests in flight may hold together; beyond it a request gets a
    /// 503 with `Retry-After` instead of memory.
    public var inFlightBytes = 32 << 20
    /// How long a body may take to arrive in full before its connection is closed.
    public var timeout: Duration = .seconds(60)
    public init(maxBytes: Int = 1 << 20, inFlightBytes: Int = 32 << 20, timeout: Duration = .seconds(60)) {
        self.maxBytes = maxBytes
        self.inFlightBytes = inFlightBytes
        self.timeout = timeout
    }
}

/// The body bytes reserved by the requests in flight, against one bound.
final class BodyBudget: Sendable {
    private let limit: Int
    private let reserved = Mutex(0)

    init(bytes: Int) { limit = bytes }

    /// Reserves `bytes`, or returns false when that would pass the bound.
    func reserve(_ bytes: Int) -> Bool {
        reserved.withLock { total in
            guard total + bytes <= limit else { return false }
            total += bytes
            return true
        }
    }

    func release(_ bytes: Int) { reserved.withLock { $0 -= bytes } }
}

/// The server has no room for this request's body now; the client may retry shortly.
struct ServerBusy: ProblemConvertible, MessageConvertible {
    let retryAfter: TimeInterval
    var message: Message { .serverBusy }
    var problem: Problem {
        Problem(status: 503, slug: "busy", title: "Service Unavailable", detail: TransportTexts.catalogue.text(message))
    }
}

/// A request body the server will not read, said in our words (the framework's name its types).
enum BodyRefused: ProblemConvertible, Equatable {
    case badLength
    case tooLarge(max: Int)
    case incomplete
    case tooSlow(Duration)
    case duplicateKey(String)
    /// JSON the decoder would take though it is not JSON (a trailing comma).
    case notJSON

    var problem: Problem {
        switch self {
        case .badLength: TransportTexts.malformed(TransportTexts.badContentLength)
        case .tooLarge(let max):
            Problem(status: 413, slug: "too-large", title: "Content Too Large", detail: TransportTexts.bodyTooLarge(max: max))
        case .incomplete: TransportTexts.malformed(TransportTexts.bodyIncomplete)
        case .tooSlow(let timeout):
            Problem(status: 408, slug: "too-slow", title: "Request Timeout", detail: TransportTexts.bodyTooSlow(timeout))
        case .duplicateKey(let key): TransportTexts.malformed(TransportTexts.duplicateKey(key))
        case .notJSON: TransportTexts.malformed(TransportTexts.notJSON)
        }
    }
}

/// Admits a request: checks the caller against the authorization table for the matched route
/// before anything it sent (path, query or body) is read, so 401 and 403 come before any
/// validation (the fast paths in front of it read a plain path and query first: their two routes
/// are anyone's), and reads bodies within the limits. Refuses a body larger than `maxBytes` with a 413
/// whether or not it declares a length; answers a body from a caller the table refuses with its
/// 401 or 403, and one that does not fit the in-flight budget with a 503, at once and
/// without reading it, then closes the connection (`refusing`); and closes the connection of a
/// body that has not fully arrived within `timeout`: the idle timeout counts every chunk as
/// activity, so a client sending a byte at a time would otherwise hold its connection, and a
/// request, for ever.
struct AdmissionMiddleware: RouterMiddleware {
    typealias Context = LibraryRequestContext
    let limits: BodyLimits
    let budget: BodyBudget
    /// The library's request rates: searches and changes, per address and per account.
    let rates: RequestRates

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let declared = request.headers[.contentLength].map { Int($0) ?? -1 }
        if let declared, declared < 0 { throw BodyRefused.badLength }
        let hasBody = declared.map { $0 > 0 } ?? (request.headers[.transferEncoding] != nil)
        if hasBody, let declared, declared > limits.maxBytes {
            throw BodyRefused.tooLarge(max: limits.maxBytes)
        }
        var allowance: RateAllowance?
        if let operation = OperationRoutes.operation(request, endpoint: context.endpointPath) {
            do {
                try Authorization.require(operation, by: RequestScope.principal)
                try Negotiation.require(request.headers, route: OperationRoutes.route(request, endpoint: context.endpointPath))
                let searching = request.uri.queryParameters["q"].map { !$0.isEmpty } ?? false
                let changes = request.method != .get && request.method != .head
                if let kind = RatedRequest.of(operation, changes: changes, searching: searching) {
                    allowance = try rates.admit(kind, client: RequestScope.clientIP, by: RequestScope.principal)
                }
            } catch {
                guard hasBody else { throw error }
                return try refusing(error, body: request.body, channel: context.channel)
            }
        }
        var response = try await admitted(request, context: context, hasBody: hasBody, declared: declared, next: next)
        if let allowance { RateHeaders.set(allowance, on: &response.headers) }
        return response
    }

    /// The answer to a request allowed to send its body: the body read within the budget, the
    /// deadline and the size, then handed on.
    private func admitted(
        _ request: Request, context: Context, hasBody: Bool, declared: Int?, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard hasBody else { return try await next(request, context) }
        let reservation = declared ?? limits.maxBytes
        guard budget.reserve(reservation) else {
            return try refusing(ServerBusy(retryAfter: 2), body: request.body, channel: context.channel)
        }
        defer { budget.release(reservation) }
        let maxBytes = limits.maxBytes
        let body = request.body
        let collected = try await withDeadline(channel: context.channel) { try await body.collect(upTo: maxBytes) }
        // A body without a Content-Type is decoded as JSON too: it is checked as JSON.
        let json = request.headers[.contentType].map { $0.lowercased().contains("json") } ?? true
        if json, let key = DuplicateKeys.first(in: collected) {
            throw BodyRefused.duplicateKey(key)
        }
        if json, DuplicateKeys.strayComma(in: collected) { throw BodyRefused.notJSON }
        var request = request
        ReceivedBody.current?.keep(collected)
        request.body = .init(buffer: collected)
        return try await next(request, context)
    }

    /// The problem for `error`, answered before the body is read, with `Connection: close`. Once
    /// it is sent, the body is read and dropped (the client may only read the answer after
    /// sending it all), and the connection closed; if the body has not arrived by the body
    /// deadline, the connection is closed then: nobody holds it by trickling a body nobody keeps.
    private func refusing(_ error: any Error, body: RequestBody, channel: any Channel) throws -> Response {
        let problem = Problem.of(error) ?? Problem(status: 400, slug: "bad-request", title: "Bad Request")
        let bytes = try problem.encoded()
        var response = Response(
            status: .init(code: problem.status), headers: [.contentType: "application/problem+json", .connection: "close"],
            body: ResponseBody(contentLength: bytes.readableBytes) { [self] writer in
                try await writer.write(bytes)
                try await writer.finish(nil)
                _ = try? await withDeadline(channel: channel) { for try await _ in body {} }
                channel.close(promise: nil)
            })
        ErrorHeaders.set(on: &response, for: error)
        if error is Unauthenticated { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }

    /// Runs `read` on the body within the body timeout, else closes the connection (which ends the
    /// body, so `read` stops) and answers 408; a body cut off by the client is a 400.
    private func withDeadline<T: Sendable>(channel: any Channel, _ read: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = limits.timeout
        let started = ContinuousClock.now
        let result: T?
        do {
            result = try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await read() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    channel.close(promise: nil)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {  // NIOTooManyBytesError
            throw BodyRefused.tooLarge(max: limits.maxBytes)
        } catch  where ContinuousClock.now - started >= timeout {
            result = nil
        } catch {
            // The client's fault (the connection ended mid-body, a broken chunk): no 500 in the log.
            throw BodyRefused.incomplete
        }
        guard let result else { throw BodyRefused.tooSlow(timeout) }
        return result
    }
}

extension DuplicateKeys {
    /// The first repeated key of a body, or nil when every object's keys are distinct.
    static func first(in buffer: ByteBuffer) -> String? {
        buffer.readableBytesView.withContiguousStorageIfAvailable { first(in: $0) } ?? first(in: Array(buffer.readableBytesView))
    }

    /// Whether a body holds a comma where JSON has none.
    static func strayComma(in buffer: ByteBuffer) -> Bool {
        buffer.readableBytesView.withContiguousStorageIfAvailable { strayComma(in: $0) }
            ?? strayComma(in: Array(buffer.readableBytesView))
    }
}
