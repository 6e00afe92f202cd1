import HTTPAPI
import Hummingbird
import Web

/// One server, two faces: the API (`/api/…` and `/openapi.yaml`) answers machines with JSON and
/// problem documents; every other path is the web pages' (HTML). A path neither knows is a page
/// for a browser (it asks for `text/html`) and, asked with GET or HEAD, a problem document for any
/// other client.
struct SiteResponder: HTTPResponder {
    typealias Context = LibraryRequestContext
    let api: RouterResponder<LibraryRequestContext>
    let pages: RouterResponder<LibraryRequestContext>

    func respond(to request: Request, context: Context) async throws -> Response {
        if Self.isAPI(request.uri.path) { return try await api.respond(to: request, context: context) }
        var page = try await pages.respond(to: request, context: context)
        // Only a GET or HEAD goes on to the API: a POST's form was read by the pages already.
        guard WebSite.isUnrouted(&page), request.method == .get || request.method == .head, !Self.wantsHTML(request) else { return page }
        return try await api.respond(to: request, context: context)
    }

    /// Whether the client asked for HTML, as browsers do.
    static func wantsHTML(_ request: Request) -> Bool {
        request.headers[values: .accept].contains { $0.lowercased().contains("text/html") }
    }

    /// Whether the path is the API's.
    static func isAPI(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") || path == "/openapi.yaml" }
}
