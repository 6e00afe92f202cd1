import Application
import AsyncHTTPClient
import CoreMetrics
import Domain
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

    /// Asks Open Library at `settings.baseURL` through `client` (one that follows no redirect); failures go to `logger` (none: not
    /// logged), calls and the breaker's state to `metrics` as `client="search"` (none: not kept).
    public init(
        settings: OpenLibrarySettings, client: HTTPClient = OpenLibraryClient.noRedirects, logger: Logger? = nil,
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
        do {
            answer = try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw http.unreadable(SearchUnavailable(.unreadable, detail: "search.json: \(error)"))
        }
        // An answer without its count or its list is no answer (found by an outside walk: `{}` was
        // kept a day as "no books found"); one unreadable hit among a hundred is left out alone.
        guard let docs = answer.docs, (answer.numFound ?? answer.numFoundSnakeCase ?? 0) >= 0 else {
            throw http.unreadable(SearchUnavailable(.unreadable, detail: "search.json: no docs, or a negative numFound"))
        }
        let results = docs.compactMap { $0.doc?.result(covers: settings.coversURL) }
        if results.count < docs.count {
            http.logger.warning("Open Library sent hits that cannot be read", metadata: ["left out": "\(docs.count - results.count)"])
        }
        let total = answer.numFound ?? answer.numFoundSnakeCase ?? results.count
        return SearchPage(results: results, total: max(total, query.offset + results.count), offset: query.offset, limit: query.limit)
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
        let docs: [Lenient]?

        /// A hit, nil when it cannot be read as one.
        struct Lenient: Decodable {
            let doc: Doc?
            init(from decoder: any Decoder) throws { doc = try? Doc(from: decoder) }
        }

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
            guard let key = key.map(OpenLibraryKeys.work), OpenLibraryKeys.isHitKey(key) else { return nil }
            let isbns = Array(
                (isbn ?? []).filter { $0.utf8.count <= 13 && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "X") } }.prefix(5))
            // Shown as Open Library wrote it, but without what no one may type (controls, direction
            // overrides) and no longer than a catalogue's book may be (an outside walk had 100 KB titles).
            return WorkResult(
                workKey: key, title: title.flatMap { FreeText.cleaned($0, max: BookLimits.title) } ?? "(untitled)",
                authors: Array((authorNames ?? []).compactMap { FreeText.cleaned($0, max: BookLimits.author) }.prefix(BookLimits.authors)),
                firstPublishYear: firstPublishYear,
                editionCount: editionCount, isbns: isbns, coverID: coverID, ratingAverage: ratingsAverage,
                ratingCount: ratingsCount, readingLogCount: readingLogCount,
                covers: OpenLibraryKeys.covers(base: covers, coverID: coverID, editionKey: coverEditionKey, isbn: isbns.first))
        }
    }
}

/// Open Library's keys and cover URLs.
public enum OpenLibraryKeys {
    /// Whether `id` is an Open Library id: `OL`, 1 to 12 digits and one of `kinds` (`W` a work,
    /// `M` an edition, `A` an author), read byte by byte (a digit and a combining mark after it
    /// are one character: an outside walk).
    public static func isID(_ id: some StringProtocol, endingIn kinds: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (4...15).contains(bytes.count), bytes.starts(with: "OL".utf8), let kind = bytes.last, kinds.utf8.contains(kind) else {
            return false
        }
        return bytes.dropFirst(2).dropLast().allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Whether `key` is a hit's key as Open Library writes them: a work's (`OL27448W`), or the
    /// edition's its search gives for some hits (`OL22375412M`).
    public static func isHitKey(_ key: String) -> Bool { isID(key, endingIn: "WM") }

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
