import Application
import AsyncHTTPClient
import CoreMetrics
import Domain
import Foundation
import Logging

/// Looks books up on Open Library: `/isbn/{isbn}.json` (an edition), following its `works` key for
/// the title and description and its (or the work's) `authors` keys for names. A work or author
/// that cannot be fetched is skipped; only the first lookup failing is an error.
public struct OpenLibraryLookup: BookLookup {
    let http: OpenLibraryHTTP
    let settings: OpenLibrarySettings

    /// Asks Open Library at `settings.baseURL` through `client` (one that follows no redirect); failures go to `logger` (none: not
    /// logged), calls and the breaker's state to `metrics` as `client="lookup"` (none: not kept).
    public init(
        settings: OpenLibrarySettings, client: HTTPClient = OpenLibraryClient.noRedirects, logger: Logger? = nil,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.settings = settings
        http = OpenLibraryHTTP(
            settings: settings, client: client, logger: logger ?? .silent, metrics: UpstreamMetrics(client: "lookup", factory: metrics))
    }

    /// The edition, its work and its authors, all asked within one deadline (`settings.deadline`).
    public func book(isbn: ISBN) async throws -> BookRecordFound? {
        let deadline = http.deadline()
        guard let edition: Record = try await fetch("/isbn/\(isbn.isbn13).json", until: deadline, required: true) else { return nil }
        let work: Record? =
            if let key = edition.works?.first?.key.flatMap({ Self.path(of: $0, kind: "works", suffix: "W") }) {
                try await fetch("\(key).json", until: deadline)
            } else {
                nil
            }
        let authorKeys = (edition.authors ?? []).compactMap(\.key) + (work?.authors ?? []).compactMap { $0.author?.key ?? $0.key }
        return BookRecordFound(
            title: edition.title ?? work?.title, authors: try await names(authorKeys, until: deadline),
            publisher: edition.publishers?.first,
            isbn: edition.isbn13?.first ?? edition.isbn10?.first ?? isbn.isbn13,
            coverURL: cover(edition.covers ?? work?.covers), description: edition.description?.text ?? work?.description?.text)
    }

    /// The work and its authors, all asked within one deadline (`settings.deadline`).
    public func book(workKey: String) async throws -> BookRecordFound? {
        let deadline = http.deadline()
        guard let work: Record = try await fetch("/works/\(workKey).json", until: deadline, required: true) else { return nil }
        let authorKeys = (work.authors ?? []).compactMap { $0.author?.key ?? $0.key }
        return BookRecordFound(
            title: work.title, authors: try await names(authorKeys, until: deadline),
            publisher: nil, isbn: nil, coverURL: cover(work.covers), description: work.description?.text)
    }

    /// The path of a key Open Library sent (`/works/OL45804W`, `/authors/OL34184A`), or nil for
    /// anything else: the key goes after the base URL, and an outside walk had
    /// `@127.0.0.1:18214/authors/x` send the server to a host of the answer's choosing.
    static func path(of key: String, kind: String, suffix: Character) -> String? {
        let prefix = "/\(kind)/"
        guard key.hasPrefix(prefix), OpenLibraryKeys.isID(key.dropFirst(prefix.count), endingIn: String(suffix)) else { return nil }
        return key
    }

    /// The first positive cover id as a large cover URL (Open Library uses -1 for "removed").
    private func cover(_ ids: [Int]?) -> String? {
        (ids ?? []).first { $0 > 0 }.map { CoverURLs.openLibrary(base: settings.coversURL, path: "id/\($0)").large }
    }

    private func names(_ keys: [String], until deadline: ContinuousClock.Instant) async throws -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        let paths = keys.compactMap { Self.path(of: $0, kind: "authors", suffix: "A") }.filter { seen.insert($0).inserted }
        for key in paths.prefix(BookLimits.authors) {
            if let author: Record = try await fetch("\(key).json", until: deadline), let name = author.name ?? author.personalName {
                names.append(name)
            }
        }
        return names
    }

    /// GETs and decodes by `deadline`; nil for 404. When `required`, an Open Library that cannot
    /// answer is `SearchUnavailable`; otherwise (a work, an author) it only leaves that part out.
    private func fetch(_ path: String, until deadline: ContinuousClock.Instant, required: Bool = false) async throws -> Record? {
        do {
            return try JSONDecoder().decode(Record.self, from: try await http.get(path, until: deadline))
        } catch OpenLibraryHTTP.Failure.notFound {
            return nil
        } catch let failure as OpenLibraryHTTP.Failure {
            if required { throw failure.trouble }
            return nil
        } catch {
            if required { throw SearchUnavailable(.unreadable, detail: "\(path): \(error)") }
            return nil
        }
    }

    /// An edition, a work or an author: every field optional, and each read on its own, so a
    /// field of the wrong type is left out alone (found by an outside walk: `"covers":[null]` made
    /// the import "unreachable", and `"covers":["x"]` on the work lost its title).
    struct Record: Decodable {
        struct Key: Decodable {
            let key: String?
            let author: Nested?
        }
        struct Nested: Decodable { let key: String? }
        enum Text: Decodable {
            case plain(String), typed(String)
            var text: String {
                switch self {
                case .plain(let s), .typed(let s): s
                }
            }
            init(from decoder: any Decoder) throws {
                if let s = try? decoder.singleValueContainer().decode(String.self) { self = .plain(s); return }
                struct Value: Decodable { let value: String }
                self = .typed(try Value(from: decoder).value)
            }
        }
        let title: String?
        let publishers: [String]?
        let isbn13: [String]?
        let isbn10: [String]?
        let covers: [Int]?
        let works: [Key]?
        let authors: [Key]?
        let description: Text?
        let name: String?
        let personalName: String?

        /// Open Library's names for the fields.
        enum CodingKeys: String, CodingKey {
            case title, publishers, covers, works, authors, description, name
            case isbn13 = "isbn_13"
            case isbn10 = "isbn_10"
            case personalName = "personal_name"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func field<T: Decodable>(_ key: CodingKeys) -> T? { (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil }
            title = field(.title)
            publishers = field(.publishers)
            isbn13 = field(.isbn13)
            isbn10 = field(.isbn10)
            covers = field(.covers)
            works = field(.works)
            authors = field(.authors)
            description = field(.description)
            name = field(.name)
            personalName = field(.personalName)
        }
    }
}
