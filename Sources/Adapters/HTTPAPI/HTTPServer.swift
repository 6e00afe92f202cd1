import Application
import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime

/// Builds the HTTP adapter: the contract's routes under `/api/v1`, `/openapi.yaml`, problem
/// documents for every error, and a bound on request bodies.
public enum HTTPServer {
    /// The router serving the library through its use cases.
    public static func router(
        library: Library, maxBodyBytes: Int = 1 << 20, bodyTimeout: Duration = .seconds(60), trustedProxies: Set<String> = []
    ) throws -> Router<LibraryRequestContext> {
        let router = Router(context: LibraryRequestContext.self)
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: BodyLimitMiddleware(maxBytes: maxBodyBytes, timeout: bodyTimeout))
        router.add(middleware: AuthenticationMiddleware(authenticate: library.accounts.authenticate, trustedProxies: trustedProxies))
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: try contract())))
        }
        try LibraryAPI(library: library).registerHandlers(
            on: router, serverURL: try Servers.Server1.url(), configuration: Configuration(dateTranscoder: WholeSecondDates()))
        return router
    }

    /// The OpenAPI document this server implements.
    public static func contract() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw Problem(status: 404, slug: "not-found", title: "Not found", detail: "the OpenAPI document is not bundled")
        }
        return try Data(contentsOf: url)
    }
}

/// Renders every error as an RFC 9457 problem document; unexpected errors become a 500
/// whose details go to the log, never to the client.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            // The generated code percent-encodes header values; a Location is a URI reference already.
            if let location = response.headers[.location], let decoded = location.removingPercentEncoding {
                response.headers[.location] = decoded
            }
            return response
        } catch {
            let problem = Problem.of(error) ?? httpProblem(error) ?? {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
                return Problem(status: 500, slug: "internal", title: "Internal error", detail: "the server failed; the error was logged")
            }()
            var response = try Self.response(problem)
            if problem.status == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
            if let error = error as? LoginThrottled ?? ((error as? ServerError)?.underlyingError as? LoginThrottled) {
                response.headers[.retryAfter] = String(max(1, Int(error.until.timeIntervalSinceNow.rounded(.up))))
            }
            return response
        }
    }

    private func httpProblem(_ error: any Error) -> Problem? {
        guard let error = error as? any HTTPResponseError, (400..<500).contains(Int(error.status.code)) else { return nil }
        let slug = error.status == .contentTooLarge ? "too-large" : error.status == .notFound ? "not-found" : "bad-request"
        let detail = (error as? HTTPError)?.body ?? error.status.reasonPhrase
        return Problem(status: Int(error.status.code), slug: slug, title: error.status.reasonPhrase, detail: detail)
    }

    static func response(_ problem: Problem) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .init(code: problem.status), headers: [.contentType: "application/problem+json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(problem))))
    }
}

/// Refuses request bodies larger than `maxBytes` with a 413, whether or not they declare a length,
/// and closes the connection of a body that has not fully arrived within `timeout`: the idle
/// timeout counts every chunk as activity, so a client sending a byte at a time would otherwise
/// hold its connection, and a request, for ever.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = LibraryRequestContext
    let maxBytes: Int
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw HTTPError(.contentTooLarge, message: "the request body is larger than \(maxBytes) bytes")
        }
        let body = request.body
        let (maxBytes, timeout, channel) = (maxBytes, timeout, context.channel)
        let started = ContinuousClock.now
        let collected: ByteBuffer?
        do {
            collected = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: maxBytes) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    channel.close(promise: nil)  // ends the body too, so the collecting task stops
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        } catch let error as any HTTPResponseError {
            throw error  // too large
        } catch where ContinuousClock.now - started >= timeout {
            collected = nil
        } catch {
            // The client's fault (the connection ended mid-body, a broken chunk): no 500 in the log.
            throw HTTPError(.badRequest, message: "the request body could not be read: \(error)")
        }
        guard let collected else {
            throw HTTPError(.requestTimeout, message: "the request body did not arrive within \(timeout)")
        }
        var request = request
        request.body = .init(buffer: collected)
        return try await next(request, context)
    }
}
