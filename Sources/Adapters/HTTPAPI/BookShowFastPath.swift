import APIContract
import Application
import Domain
import HTTPTypes
import Hummingbird
import Wording

/// `GET /api/v1/books/{id}` answered without the generated layer when the request is plain: an id
/// as the library writes them, no query, an `Accept` of JSON or anything, at most one
/// `If-None-Match`. The answer is the generated handler's (the same use cases, the same `ETag`,
/// 304 when the tag matches), written by `BookJSON`; every other request, and every refusal (an
/// unknown book), goes on to the generated handler, which words it. It stands right after
/// authentication, as `BookListFastPath` does, and `HTTPFastPathTests` compare its answers with the
/// generated handler's, byte for byte. Issue 20: a book's page is the
/// catalogue's other busy read.
struct BookShowFastPath: RouterMiddleware {
    typealias Context = LibraryRequestContext
    let versions: ResourceVersions
    let showBook: ShowBook
    /// The JSON of the books answered last, by book and content.
    let encoded = EncodedAnswers<BookID, CatalogueEntry>()

    static let prefix = "/api/v1/books/"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get, request.uri.query == nil, let id = Self.plainID(request.uri.path),
            FastPath.acceptsJSON(request.headers[.accept]), FastPath.bodiless(request.headers),
            request.headers[values: .ifNoneMatch].count <= 1
        else { return try await next(request, context) }
        let entry: CatalogueEntry
        let version: ResourceVersion
        do {
            version = try await versions.book(id)
            entry = try await showBook.execute(id, by: RequestScope.principal)
        } catch {
            return try await next(request, context)
        }
        let tag = EntityTags.tag(version, showing: entry.lastCheckout?.name)
        if EntityTags.unchanged(ifNoneMatch: request.headers[.ifNoneMatch], current: tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        let body = encoded.body(entry, for: id, in: Reader.language) { BookJSON.book(Components.Schemas.Book(entry)) }
        return FastPath.json(body, [.eTag: tag])
    }

    /// The book named by a path that is the prefix and an id written as the library writes them
    /// (lower-case hex and dashes, so the path needs no decoding); nil for any other path.
    static func plainID(_ path: String) -> BookID? {
        guard path.hasPrefix(prefix) else { return nil }
        let text = path.dropFirst(prefix.utf8.count)
        guard text.utf8.count == 36, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }),
            let id = BookID(String(text)), id.description == text
        else { return nil }
        return id
    }
}
