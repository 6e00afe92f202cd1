import APIContract
import Application
import HTTPTypes
import Hummingbird
import Wording

/// `GET /api/v1/books` answered without the generated layer when the request is plain: no `q`,
/// only `limit`, `offset` and `sort` each at most once with values the contract takes as they are
/// (digits; one of the sort names), and an `Accept` of JSON or anything. The answer is the same
/// use case's page, written by `BookJSON`; every other request (a search, an odd parameter, a
/// refusal of any kind) goes on to the generated handler, which words it. It stands right after
/// authentication (`FastPath.bodiless` says why the middlewares after it have nothing to refuse in
/// what it takes). `HTTPFastPathTests` compare its answers with the generated handler's, byte for byte.
/// Issue 20: the list is the catalogue's busiest read, and Foundation's `JSONEncoder` was a
/// quarter of its cost.
struct BookListFastPath: RouterMiddleware {
    typealias Context = LibraryRequestContext
    let listBooks: ListBooks
    /// The JSON of the pages answered last, by request and content.
    let encoded = EncodedAnswers<ListRequest, Page<CatalogueEntry>>()

    /// What a plain list asks: its order and its page.
    struct ListRequest: Hashable, Sendable {
        let query: CatalogueQuery
        let page: PageRequest
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get, request.uri.path == "/api/v1/books", FastPath.acceptsJSON(request.headers[.accept]),
            FastPath.bodiless(request.headers), let (query, page) = Self.plainQuery(request.uri.query)
        else { return try await next(request, context) }
        let books: Page<CatalogueEntry>
        do {
            books = try await listBooks.execute(query, page: page, by: RequestScope.principal)
        } catch {
            return try await next(request, context)
        }
        let body = encoded.body(books, for: ListRequest(query: query, page: page), in: Reader.language) {
            BookJSON.page(Components.Schemas.BookPage(books))
        }
        return FastPath.json(body)
    }

    /// The query and page of a plain request; nil when anything in it is not plain.
    static func plainQuery(_ text: String?) -> (CatalogueQuery, PageRequest)? {
        var (limit, offset, sort): (Int?, Int?, CatalogueSort?) = (nil, nil, nil)
        let items = text.map { $0.isEmpty ? [] : $0.split(separator: "&", omittingEmptySubsequences: false) } ?? []
        for item in items {
            guard let equals = item.firstIndex(of: "=") else { return nil }
            let (name, value) = (item[..<equals], item[item.index(after: equals)...])
            switch name {
            case "limit" where limit == nil: guard let n = number(value) else { return nil }; limit = n
            case "offset" where offset == nil: guard let n = number(value) else { return nil }; offset = n
            case "sort" where sort == nil: guard let s = CatalogueSort(rawValue: String(value)) else { return nil }; sort = s
            default: return nil
            }
        }
        guard let page = try? PageRequest(limit: limit, offset: offset) else { return nil }
        return (CatalogueQuery(sort: sort ?? .newest, text: nil), page)
    }

    /// One to seven ASCII digits.
    private static func number(_ text: Substring) -> Int? {
        guard (1...7).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
