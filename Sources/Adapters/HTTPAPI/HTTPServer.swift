import APIContract
import Application
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import Wording

/// Builds the HTTP adapter: the contract's routes under `/api/v1`, `/openapi.yaml`, problem
/// documents for every error, and a bound on request bodies.
public enum HTTPServer {
    /// The router serving the library through its use cases.
    /// Who the caller is comes before what it sends: the token is checked from the headers alone,
    /// and a body is read only for a caller allowed to send it, within the memory all bodies in
    /// flight may hold together. `HEAD` answers wherever `GET` does; a path asked with a method it
    /// does not answer is a 405 naming those it does.
    public static func router(
        library: Library, bodies: BodyLimits = BodyLimits(), trustedProxies: Set<String> = []
    ) throws -> Router<LibraryRequestContext> {
        let shapes = try ContractShapes(contract: String(decoding: try contract(), as: UTF8.self))
        let router = Router(context: LibraryRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: NoStore())
        router.add(middleware: ProblemMiddleware(requests: RequestProblems(contract: shapes)))
        router.add(middleware: AuthenticationMiddleware(authenticate: library.accounts.authenticate, trustedProxies: trustedProxies))
        // The two busiest reads, right after authentication: the middlewares after them cost a
        // quarter of a book's answer, and have nothing to refuse in what they take (`FastPath.bodiless`).
        router.add(middleware: BookListFastPath(listBooks: library.catalogue.listBooks))
        router.add(middleware: BookShowFastPath(versions: library.catalogue.versions, showBook: library.catalogue.showBook))
        router.add(middleware: OneContentType())
        router.add(middleware: AdmissionMiddleware(limits: bodies, budget: BodyBudget(bytes: bodies.inFlightBytes), rates: library.rates))
        router.add(middleware: WellFormedAddress())
        router.add(middleware: SafeRetryMiddleware(retries: library.retries))
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: try contract())))
        }
        try LibraryAPI(library: library).registerHandlers(
            on: router, serverURL: try Servers.Server1.url(),
            configuration: Configuration(
                dateTranscoder: WholeSecondDates(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
            middlewares: [NullsRefused(contract: shapes, maxBytes: bodies.maxBytes)])
        // Added after every route, so it stands only in front of the router's "not found".
        router.add(middleware: AllowedMethods(routes: router.routes, headWithGet: true))
        return router
    }

    /// The handlers every connection's pipeline adds after the HTTP codec: a request the parser
    /// refuses is answered with a problem document.
    public static func channelHandlers() -> [any RemovableChannelHandler] { [MalformedRequestAnswer()] }

    /// The OpenAPI document this server implements.
    public static func contract() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw Problem(status: 404, slug: "not-found", title: "Not found", detail: TransportTexts.say(.contractMissing))
        }
        return try Data(contentsOf: url)
    }
}

/// Renders every error as an RFC 9457 problem document, and gives every 503 and 429 a
/// `Retry-After`. A request the generated code could not decode is said in the contract's terms
/// (`RequestProblems`); unexpected errors become a 500. The technical error of either goes to the
/// log, with the request's id, never to the client.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let requests: RequestProblems

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let language = Language.reading(acceptLanguage: request.headers[.acceptLanguage])
        return try await Reader.$language.withValue(language) { try await answer(request, context: context, next: next) }
    }

    /// The answer, in the reader's language: a problem document says which (`Content-Language`),
    /// and that another `Accept-Language` gets other words (`Vary`).
    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let received = ReceivedBody()
        do {
            var response = try await ReceivedBody.$current.withValue(received) { try await next(request, context) }
            // The generated code percent-encodes header values; a Location is a URI reference already,
            // and an ETag is quoted.
            for name in [HTTPField.Name.location, .eTag] {
                if let value = response.headers[name], value.utf8.contains(UInt8(ascii: "%")),
                    let decoded = value.removingPercentEncoding
                {
                    response.headers[name] = decoded
                }
            }
            RetryAfter.set(on: &response, for: nil)
            return response
        } catch {
            let problem = problem(error, path: request.uri.path, body: received.buffer, logger: context.logger)
            var response = try Self.response(problem)
            if problem.status == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
            if let refused = error as? MethodNotAllowed { response.headers[.allow] = MethodNotAllowed.header(refused.allowed) }
            ErrorHeaders.set(on: &response, for: error)
            return response
        }
    }

    private func problem(_ error: any Error, path: String, body: ByteBuffer?, logger: Logger) -> Problem {
        if let error = error as? ServerError, let problem = requests.problem(error, body: body) {
            logger.info(
                "request not decoded",
                metadata: ["operation": "\(error.operationID)", "error": "\(String(reflecting: error.underlyingError))"])
            return problem
        }
        if let problem = Problem.of(error) { return problem }
        if let problem = Self.transportProblem(error, path: path) {
            logger.debug("request refused", metadata: LoggedError.metadata(error))
            return problem
        }
        logger.error("request failed", metadata: LoggedError.metadata(error))
        return Problem(status: 500, slug: "internal", title: "Internal error", detail: TransportTexts.catalogue.text(.serverFailed))
    }

    /// The router's own 4xx errors, in our words: their messages are the framework's.
    static func transportProblem(_ error: any Error, path: String) -> Problem? {
        guard let error = error as? any HTTPResponseError, (400..<500).contains(Int(error.status.code)) else { return nil }
        let status = error.status
        return switch status {
        case .notFound: Problem(status: 404, slug: "not-found", title: "Not found", detail: TransportTexts.noSuchPath(path))
        case .contentTooLarge: Problem(status: 413, slug: "too-large", title: status.reasonPhrase)
        default: Problem(status: Int(status.code), slug: "bad-request", title: status.reasonPhrase, detail: TransportTexts.unreadable)
        }
    }

    static func response(_ problem: Problem) throws -> Response {
        Response(
            status: .init(code: problem.status),
            headers: [.contentType: "application/problem+json", .contentLanguage: Reader.language.rawValue, .vary: "Accept-Language"],
            body: .init(byteBuffer: try problem.encoded()))
    }
}

extension Problem {
    /// The document's bytes, as the API sends them.
    func encoded() throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ByteBuffer(bytes: try encoder.encode(self))
    }
}

/// What the log keeps of an error: an error of the generated code (`ServerError`) carries the
/// whole request, its headers (a bearer token) and its decoded body (a password), so only its
/// operation and the error beneath it are written (found by an outside test: a 500 logged a token).
enum LoggedError {
    /// The error beneath any `ServerError` wrapping it, and the operation that failed.
    static func metadata(_ error: any Error) -> Logger.Metadata {
        var error = error
        var operation: String?
        while let wrapped = error as? ServerError {
            operation = operation ?? wrapped.operationID
            error = wrapped.underlyingError
        }
        var metadata: Logger.Metadata = ["error": "\(String(reflecting: error))"]
        if let operation { metadata["operation"] = "\(operation)" }
        return metadata
    }
}
