import Domain
import Foundation

/// Orders Open Library can sort a whole result set in.
public enum SearchSort: String, CaseIterable, Sendable {
    case relevance, title, rating, hits, editions, new, old
}

/// A search of the world's books (Open Library): by title, author or free text.
public struct SearchQuery: Hashable, Sendable {
    /// How deep Open Library pages a result set.
    public static let maxOffset = 10_000
    public var title: String?
    public var author: String?
    public var text: String?
    public var sort: SearchSort
    public var limit: Int
    public var offset: Int

    public init(
        title: String? = nil, author: String? = nil, text: String? = nil, sort: SearchSort = .relevance, limit: Int = 20, offset: Int = 0
    ) {
        func clean(_ s: String?) -> String? {
            s.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        self.title = clean(title)
        self.author = clean(author)
        self.text = clean(text)
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// Field errors: something to search for, typed text of at most 200 Unicode scalars (the
    /// contract's maxLength), paging in range.
    public func validate() throws(InvalidInput) {
        var errors: [FieldError] = []
        if title == nil && author == nil && text == nil {
            errors.append(FieldError("title", .atLeastOneOf(["title", "author", "q"])))
        }
        for case let (field, value?) in [("title", title), ("author", author), ("q", text)] {
            if value.unicodeScalars.count > 200 { errors.append(FieldError(field, .tooLong(max: 200))) }
            // A NUL cut the cache key short, so that queries differing after it shared one answer.
            if let problem = FreeText.problem(value, field: field, multiline: true) { errors.append(problem) }
        }
        // The limit is every list's; the offset Open Library's own, narrower than every list's.
        errors += PageRequest.problems(limit: limit, offset: nil)
        if !(0...Self.maxOffset).contains(offset) {
            errors.append(FieldError("offset", .outOfRange(min: 0, max: Self.maxOffset)))
        }
        if !errors.isEmpty { throw InvalidInput(errors) }
    }
}

/// Cover image URLs in three sizes.
public struct CoverURLs: Hashable, Sendable, Codable {
    public let small: String
    public let medium: String
    public let large: String

    /// Open Library's covers of one kind of key (`id/123`, `olid/OL1M`, `isbn/978…`) under a covers base URL.
    public static func openLibrary(base: String, path: String) -> CoverURLs {
        func url(_ size: String) -> String { "\(base)/b/\(path)-\(size).jpg" }
        return CoverURLs(small: url("S"), medium: url("M"), large: url("L"))
    }
    public init(small: String, medium: String, large: String) {
        self.small = small
        self.medium = medium
        self.large = large
    }
}

/// One work found.
public struct WorkResult: Hashable, Sendable, Codable {
    /// The work's key without prefix, e.g. `OL27448W`.
    public let workKey: String
    public let title: String
    public let authors: [String]
    public let firstPublishYear: Int?
    public let editionCount: Int?
    public let isbns: [String]
    public let coverID: Int?
    public let ratingAverage: Double?
    public let ratingCount: Int?
    /// Popularity: how many reading logs hold it.
    public let readingLogCount: Int?
    public let covers: CoverURLs?

    public init(
        workKey: String, title: String, authors: [String], firstPublishYear: Int?, editionCount: Int?, isbns: [String],
        coverID: Int?, ratingAverage: Double?, ratingCount: Int?, readingLogCount: Int?, covers: CoverURLs?
    ) {
        self.workKey = workKey
        self.title = title
        self.authors = authors
        self.firstPublishYear = firstPublishYear
        self.editionCount = editionCount
        self.isbns = isbns
        self.coverID = coverID
        self.ratingAverage = ratingAverage
        self.ratingCount = ratingCount
        self.readingLogCount = readingLogCount
        self.covers = covers
    }
}

/// One page of search results.
public struct SearchPage: Hashable, Sendable, Codable {
    public let results: [WorkResult]
    public let total: Int
    public let offset: Int
    public let limit: Int
    /// True when served from the cache because Open Library could not be reached.
    public var stale: Bool
    public init(results: [WorkResult], total: Int, offset: Int, limit: Int, stale: Bool = false) {
        self.results = results
        self.total = total
        self.offset = offset
        self.limit = limit
        self.stale = stale
    }
    /// The offset of the next page, or nil at the end or past the deepest page Open Library gives
    /// (`SearchQuery.maxOffset`; found by an outside walk: "the" offered a next page that was refused).
    public var nextOffset: Int? {
        let next = offset + results.count
        return next < total && !results.isEmpty && next <= SearchQuery.maxOffset ? next : nil
    }
}

/// Searches the world's books.
public protocol BookSearch: Sendable {
    /// One page of works matching the query, sorted over the whole result set by the source.
    /// Throws `SearchUnavailable` when the source cannot be reached, `InvalidInput` for a query it refuses.
    func search(_ query: SearchQuery) async throws -> SearchPage
}

/// The book search source cannot answer (down, too slow, failing, or its breaker is open). A
/// person reads its catalogue message (`.upstreamUnavailable`); `detail` is for the log only.
public struct SearchUnavailable: Error, Equatable, Sendable {
    /// Why, in kinds a message or a metric can tell apart.
    public enum Cause: String, Equatable, Sendable, CaseIterable {
        /// No connection: the name did not resolve, the connection was refused or dropped.
        case unreachable
        /// No answer within the deadline.
        case tooSlow
        /// It answered with an error (a 5xx, or a refusal).
        case failing
        /// It answered with something that could not be read.
        case unreadable
        /// It failed so often lately that it is not asked for a while (the circuit breaker).
        case resting
    }

    /// How long a client should wait before asking again when nothing better is known.
    public static let defaultRetryAfter: TimeInterval = 30

    public let cause: Cause
    /// The technical cause (a library's error, a status): for the log, never shown to a person.
    public let detail: String
    /// Seconds after which asking again may succeed (`Retry-After`).
    public let retryAfter: TimeInterval

    public init(_ cause: Cause, detail: String = "", retryAfter: TimeInterval = SearchUnavailable.defaultRetryAfter) {
        self.cause = cause
        self.detail = detail
        self.retryAfter = retryAfter
    }
}

/// Keeps search answers so a repeated search is not asked again, and an unreachable source can
/// still be answered from what was seen.
public protocol SearchCache: Sendable {
    /// The stored answer for a key, with when it was stored.
    func lookup(_ key: String) async throws -> (page: SearchPage, storedAt: Date)?
    /// Stores an answer, evicting the oldest entries past the cache's bound.
    func store(_ key: String, _ page: SearchPage, at: Date) async throws
}

/// A bookmark as listed: in the shape of a search result, plus what it points at.
public struct BookmarkEntry: Equatable, Sendable {
    public let key: String
    public let work: WorkResult
    /// Set when the bookmark is of a catalogue book.
    public let book: BookID?
    public let bookmarkedAt: Date
    public init(key: String, work: WorkResult, book: BookID?, bookmarkedAt: Date) {
        self.key = key
        self.work = work
        self.book = book
        self.bookmarkedAt = bookmarkedAt
    }
}

/// Orders of a bookmark list.
public enum BookmarkSort: String, CaseIterable, Sendable {
    case newest, title
}

/// The bookmarks read model.
public protocol BookmarkShelf: Sendable {
    /// One page of a member's bookmarks in the requested order (ties broken by the newest first).
    func bookmarks(of member: UserID, sort: BookmarkSort, page: PageRequest) async throws -> Page<BookmarkEntry>
}

/// What Open Library knows of one book, to pre-fill a catalogue record.
public struct BookRecordFound: Equatable, Sendable {
    public var title: String?
    public var authors: [String]
    public var publisher: String?
    public var isbn: String?
    public var coverURL: String?
    public var description: String?
    public init(title: String?, authors: [String], publisher: String?, isbn: String?, coverURL: String?, description: String?) {
        self.title = title
        self.authors = authors
        self.publisher = publisher
        self.isbn = isbn
        self.coverURL = coverURL
        self.description = description
    }
}

/// Looks one book up by ISBN or work key (Open Library), for importing into the catalogue.
public protocol BookLookup: Sendable {
    /// The edition with this ISBN, completed from its work and authors; nil when unknown.
    func book(isbn: ISBN) async throws -> BookRecordFound?
    /// The work with this key (`OL…W`), completed from its authors; nil when unknown.
    func book(workKey: String) async throws -> BookRecordFound?
}
