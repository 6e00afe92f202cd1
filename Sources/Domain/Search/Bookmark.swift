import Foundation

// The Bookmark aggregate, one stream per member: the works and catalogue books the member
// keeps for later (the seeds' "bookmarks" and "reading list" are this one feature).

public enum BookmarkEvent: Equatable, Sendable {
    case added(BookmarkAdded)
    case removed(BookmarkRemoved)
}

/// How the log stores each case: its name, written once here, and its payload.
extension BookmarkEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case added = "bookmark.added.v1"
        case removed = "bookmark.removed.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .added(let e): (.added, e)
        case .removed(let e): (.removed, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> BookmarkEvent {
        switch type {
        case .added: .added(try payload.decode())
        case .removed: .removed(try payload.decode())
        }
    }
}

/// What a bookmark keeps of the book, so the list shows without asking anyone.
public struct BookmarkSnapshot: Equatable, Sendable, Codable {
    public let title: String
    public let authors: [String]
    public let firstPublishYear: Int?
    public let coverID: Int?
    public let ratingAverage: Double?
    public init(title: String, authors: [String], firstPublishYear: Int?, coverID: Int?, ratingAverage: Double?) {
        self.title = title
        self.authors = authors
        self.firstPublishYear = firstPublishYear
        self.coverID = coverID
        self.ratingAverage = ratingAverage
    }
}

/// A member bookmarked an Open Library work (`key` = `OL…W`) or a catalogue book (`key` = `book:<id>`).
public struct BookmarkAdded: Equatable, Sendable, Codable {
    public let member: UserID
    public let key: String
    public let book: BookID?
    public let snapshot: BookmarkSnapshot
    public init(member: UserID, key: String, book: BookID?, snapshot: BookmarkSnapshot) {
        self.member = member
        self.key = key
        self.book = book
        self.snapshot = snapshot
    }
}

/// A member removed a bookmark.
public struct BookmarkRemoved: Equatable, Sendable, Codable {
    public let member: UserID
    public let key: String
    public init(member: UserID, key: String) {
        self.member = member
        self.key = key
    }
}

public enum BookmarkCommand: Equatable, Sendable {
    case add(BookmarkAdded)
    case remove(member: UserID, key: String)
}

public enum BookmarkAggregate: Aggregate {
    public typealias Rejection = Never
    public static let initial: Set<String> = []

    public static func evolve(_ state: Set<String>, _ event: BookmarkEvent) -> Set<String> {
        switch event {
        case .added(let e): state.union([e.key])
        case .removed(let e): state.subtracting([e.key])
        }
    }

    /// Bookmarking twice, or removing what is not there, decides nothing.
    public static func decide(_ command: BookmarkCommand, _ state: Set<String>) -> [BookmarkEvent] {
        switch command {
        case .add(let e): state.contains(e.key) ? [] : [.added(e)]
        case .remove(let member, let key): state.contains(key) ? [.removed(BookmarkRemoved(member: member, key: key))] : []
        }
    }

    /// The bookmark key of a catalogue book.
    public static func key(of book: BookID) -> String { "book:\(book)" }
}
