import HTTPAPI
import Hummingbird

/// One server, two faces: the API (`/api/…` and `/openapi.yaml`) answers machines with JSON and
/// problem documents; every other path is the web pages' (HTML).
struct SiteResponder: HTTPResponder {
    typealias Context = LibraryRequestContext
    let api: RouterResponder<LibraryRequestContext>
    let pages: RouterResponder<LibraryRequestContext>

    func respond(to request: Request, context: Context) async throws -> Response {
        try await (Self.isAPI(request.uri.path) ? api : pages).respond(to: request, context: context)
    }

    /// Whether the path is the API's.
    static func isAPI(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") || path == "/openapi.yaml" }
}
