import Application
import HTTPAPI
import Hummingbird
import ProlificAPI
import Web

/// One server, two faces: the API (`/api/…` and `/openapi.yaml`) answers machines with JSON and
/// problem documents; every other path is the web pages' (HTML). A path neither knows is a page
/// for a browser (it asks for `text/html`) and, asked with GET or HEAD, a problem document for any
/// other client. A path whose first segment has a Prolific key's shape (24 lower-case hex
/// characters) is the Prolific API's while a live key exists (asked at each such request, so a key
/// made while serving works at once) or when `serve --prolific` forces it on.
struct SiteResponder: HTTPResponder {
    typealias Context = LibraryRequestContext
    let api: RouterResponder<LibraryRequestContext>
    let pages: RouterResponder<LibraryRequestContext>
    var prolific: ProlificMount? = nil

    func respond(to request: Request, context: Context) async throws -> Response {
        if ProlificAPI.isKeyPath(request.uri.path), let prolific, await prolific.isOn() {
            return try await prolific.responder.respond(to: request, context: context)
        }
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

/// The Prolific API in the site: its responder, and whether it answers now. A class, so the site
/// holds one reference to it rather than copying its responder at every request.
final class ProlificMount: Sendable {
    let responder: ProlificResponder<LibraryRequestContext>
    let forced: Bool
    let keys: AppKeysInUse

    init(responder: ProlificResponder<LibraryRequestContext>, forced: Bool, keys: AppKeysInUse) {
        self.responder = responder
        self.forced = forced
        self.keys = keys
    }

    /// On when forced, or while a Prolific key works (a failed look-up leaves it off).
    func isOn() async -> Bool {
        if forced { return true }
        return (try? await keys.execute()) ?? false
    }
}
