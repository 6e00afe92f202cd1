import Application
import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging

/// Book search on Open Library's `search.json`, sorted and paged by Open Library itself over the
/// whole result set, asking explicitly for the fields it only returns on request.
public struct OpenLibrarySearch: BookSearch {
    static let fields = [
        "key", "title", "author_name", "first_publish_year", "edition_count", "isbn", "cover_i", "cover_edition_key",
        "ratings_average", "ratings_count", "readinglog_count", "already_read_count",
    ].joined(separator: ",")

    let http: OpenLibraryHTTP
    let settings: OpenLibrarySettings

    /// Asks Open Library at `settings.baseURL` through `client`; failures go to `logger` (none: not
    /// logged), calls and the breaker's state to `metrics` as `client="search"` (none: not kept).
    public init(
        settings: OpenLibrarySettings, client: HTTPClient = .shared, logger: Logger? = nil,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.settings = settings
        http = OpenLibraryHTTP(
            settings: settings, client: client, logger: logger ?? .silent, metrics: UpstreamMetrics(client: "search", factory: metrics))
    }

    public func search(_ query: SearchQuery) async throws -> SearchPage {
        let data: Data
        do {
            data = try await http.get("/search.json?" + Self.parameters(query), until: http.deadline())
        } catch .unprocessable {
            throw InvalidInput("q", .tooVague)
        } catch {
            throw error.trouble
        }
        let answer: Answer
        do { answer = try JSONDecoder().decode(Answer.self, from: data) } catch {
            throw SearchUnavailable(.unreadable, detail: "search.json: \(error)")
        }
        let results = (answer.docs ?? []).compactMap { $0.result(covers: settings.coversURL) }
        return SearchPage(
            results: results, total: answer.numFound ?? answer.numFoundSnakeCase ?? results.count, offset: query.offset, limit: query.limit)
    }

    /// The query string sent: title / author / q, paging, sort and the explicit field list.
    static func parameters(_ query: SearchQuery) -> String {
        var pairs: [(String, String)] = []
        if let title = query.title { pairs.append(("title", title)) }
        if let author = query.author { pairs.append(("author", author)) }
        if let text = query.text { pairs.append(("q", text)) }
        if let sort = sortParameter(query.sort) { pairs.append(("sort", sort)) }
        pairs += [("limit", "\(query.limit)"), ("offset", "\(query.offset)"), ("fields", fields)]
        return pairs.map { "\($0)=\($1.queryEncoded)" }.joined(separator: "&")
    }

    static func sortParameter(_ sort: SearchSort) -> String? {
        switch sort {
        case .relevance: nil
        case .title: "title"
        case .rating: "rating"
        case .hits: "readinglog"
        case .editions: "editions"
        case .new: "new"
        case .old: "old"
        }
    }

    struct Answer: Decodable {
        let numFound: Int?
        /// The same count under its older name.
        let numFoundSnakeCase: Int?
        let docs: [Doc]?

        enum CodingKeys: String, CodingKey {
            case numFound, docs
            case numFoundSnakeCase = "num_found"
        }
    }

    /// A search hit; every field may be absent.
    struct Doc: Decodable {
        let key: String?
        let title: String?
        let authorNames: [String]?
        let firstPublishYear: Int?
        let editionCount: Int?
        let isbn: [String]?
        let coverID: Int?
        let coverEditionKey: String?
        let ratingsAverage: Double?
        let ratingsCount: Int?
        let readingLogCount: Int?

        /// Open Library's names for the fields.
        enum CodingKeys: String, CodingKey {
            case key, title, isbn
            case authorNames = "author_name"
            case firstPublishYear = "first_publish_year"
            case editionCount = "edition_count"
            case coverID = "cover_i"
            case coverEditionKey = "cover_edition_key"
            case ratingsAverage = "ratings_average"
            case ratingsCount = "ratings_count"
            case readingLogCount = "readinglog_count"
        }

        func result(covers: String) -> WorkResult? {
            guard let key = key.map(OpenLibraryKeys.work), !key.isEmpty else { return nil }
            let isbns = Array((isbn ?? []).prefix(5))
            return WorkResult(
                workKey: key, title: title ?? "(untitled)", authors: authorNames ?? [], firstPublishYear: firstPublishYear,
                editionCount: editionCount, isbns: isbns, coverID: coverID, ratingAverage: ratingsAverage,
                ratingCount: ratingsCount, readingLogCount: readingLogCount,
                covers: OpenLibraryKeys.covers(base: covers, coverID: coverID, editionKey: coverEditionKey, isbn: isbns.first))
        }
    }
}

/// Open Library's keys and cover URLs.
public enum OpenLibraryKeys {
    /// `OL27448W` from `/works/OL27448W` or `OL27448W`.
    public static func work(_ key: String) -> String {
        key.split(separator: "/").last.map(String.init) ?? key
    }

    /// Cover URLs by cover id, else by edition OLID, else by ISBN; nil when there is none of them.
    public static func covers(base: String, coverID: Int?, editionKey: String?, isbn: String?) -> CoverURLs? {
        let path: String
        if let coverID, coverID > 0 {
            path = "id/\(coverID)"
        } else if let editionKey {
            path = "olid/\(work(editionKey))"
        } else if let isbn {
            path = "isbn/\(isbn)"
        } else {
            return nil
        }
        return CoverURLs.openLibrary(base: base, path: path)
    }
}
