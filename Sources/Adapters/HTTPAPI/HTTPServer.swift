import APIContract
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
    /// Who the caller is comes before what it sends: the token is checked from the headers alone,
    /// and a body is read only for a caller allowed to send it, within the memory all bodies in
    /// flight may hold together.
    public static func router(
        library: Library, bodies: BodyLimits = BodyLimits(), trustedProxies: Set<String> = []
    ) throws -> Router<LibraryRequestContext> {
        let router = Router(context: LibraryRequestContext.self)
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: AuthenticationMiddleware(authenticate: library.accounts.authenticate, trustedProxies: trustedProxies))
        router.add(middleware: AdmissionMiddleware(limits: bodies, budget: BodyBudget(bytes: bodies.inFlightBytes)))
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
            let problem =
                Problem.of(error) ?? httpProblem(error)
                ?? {
                    context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
                    return Problem(
                        status: 500, slug: "internal", title: "Internal error", detail: "the server failed; the error was logged")
                }()
            var response = try Self.response(problem)
            if problem.status == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
            if let seconds = Self.retryAfter(error) { response.headers[.retryAfter] = String(seconds) }
            return response
        }
    }

    /// Whole seconds a client should wait before trying again, for errors that say so.
    static func retryAfter(_ error: any Error) -> Int? {
        let error = (error as? ServerError)?.underlyingError ?? error
        let seconds: TimeInterval
        switch error {
        case let error as LoginThrottled: seconds = error.until.timeIntervalSinceNow
        case let error as TooManyAttempts: seconds = error.retryAfter
        case let error as ServerBusy: seconds = error.retryAfter
        default: return nil
        }
        return max(1, Int(min(seconds, 86_400).rounded(.up)))
    }

    private func httpProblem(_ error: any Error) -> Problem? {
        guard let error = error as? any HTTPResponseError, (400..<500).contains(Int(error.status.code)) else { return nil }
        let slug = error.status == .contentTooLarge ? "too-large" : error.status == .notFound ? "not-found" : "bad-request"
        let detail = (error as? HTTPError)?.body ?? error.status.reasonPhrase
        return Problem(status: Int(error.status.code), slug: slug, title: error.status.reasonPhrase, detail: detail)
    }

    static func response(_ problem: Problem) throws -> Response {
        Response(
            status: .init(code: problem.status), headers: [.contentType: "application/problem+json"],
            body: .init(byteBuffer: try bodyBytes(problem)))
    }

    /// The problem document's bytes.
    static func bodyBytes(_ problem: Problem) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ByteBuffer(bytes: try encoder.encode(problem))
    }
}
