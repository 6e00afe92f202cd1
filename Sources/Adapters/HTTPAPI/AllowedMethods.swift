import APIContract
import HTTPTypes
import Hummingbird

/// Tells a request no route matched whether its path exists under other methods: a 405 whose
/// `Allow` lists them, or, for `OPTIONS`, a 204 with the same `Allow`. The methods are the
/// router's own routes, read once every route is registered; a path no route has stays a 404.
/// Added to the router after the routes, it runs only in front of the router's "not found".
struct AllowedMethods<Context: RequestContext>: RouterMiddleware {
    private let routes: [(path: RouterPath, methods: [HTTPRequest.Method])]

    /// `headWithGet` when the router answers `HEAD` wherever it answers `GET`
    /// (`autoGenerateHeadEndpoints`, whose routes it adds only when it builds its responder).
    init(routes: [Router<Context>.RouteDescription], headWithGet: Bool) {
        var byPath: [String: (RouterPath, [HTTPRequest.Method])] = [:]
        for route in routes {
            byPath[route.path.description, default: (route.path, [])].1.append(route.method)
            if headWithGet, route.method == .get { byPath[route.path.description]?.1.append(.head) }
        }
        self.routes = byPath.values.map { ($0.0, $0.1 + [.options]) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = methods(for: request.uri.path) else { throw error }
            if request.method == .options { return Response(status: .noContent, headers: [.allow: MethodNotAllowed.header(allowed)]) }
            throw MethodNotAllowed(method: request.method, path: request.uri.path, allowed: allowed)
        }
    }

    /// The methods of the route the router would match for `path` under any method: a literal
    /// segment beats a capture (`/books/import` before `/books/{id}`), as in the router's trie.
    func methods(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/")
        let matches = routes.compactMap { route -> ([Bool], [HTTPRequest.Method])? in
            guard route.path.components.count == segments.count else { return nil }
            var literal: [Bool] = []
            for (element, segment) in zip(route.path.components, segments) {
                guard element ~= segment else { return nil }
                literal.append(element == segment)
            }
            return (literal, route.methods)
        }
        return matches.max { $0.0.lexicographicallyPrecedes($1.0) { !$0 && $1 } }?.1
    }
}

/// A method the path does not answer; `allowed` are those it does.
struct MethodNotAllowed: ProblemConvertible {
    let method: HTTPRequest.Method
    let path: String
    let allowed: [HTTPRequest.Method]

    var problem: Problem {
        Problem(
            status: 405, slug: "method-not-allowed", title: "Method Not Allowed",
            detail: TransportTexts.methodNotAllowed(method.rawValue, path: path, allowed: Self.ordered(allowed)))
    }

    /// The `Allow` header's value.
    static func header(_ methods: [HTTPRequest.Method]) -> String { ordered(methods).joined(separator: ", ") }

    /// The methods' names in a stable order, reads before writes.
    private static func ordered(_ methods: [HTTPRequest.Method]) -> [String] {
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        return methods.map(\.rawValue).sorted {
            (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
        }
    }
}
