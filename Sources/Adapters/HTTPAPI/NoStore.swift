import HTTPTypes
import Hummingbird

/// Every answer of the API says `Cache-Control: no-store` unless its route says otherwise: a
/// session's token, a member's card, loans and profile are one person's, and a cache between them
/// and the server (a proxy, a shared browser) must keep none of it (found by an outside walk:
/// `POST /sessions` answered a token with no `Cache-Control`). It stands outside the problem
/// documents' middleware, so refusals say it too.
struct NoStore<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
