import Domain

/// The catalogue refused a command about one book; says which book and why.
public struct BookRefused: Error, Equatable, Sendable, CustomStringConvertible {
    public let book: BookID
    public let rejection: BookRejection
    public init(_ book: BookID, _ rejection: BookRejection) {
        self.book = book
        self.rejection = rejection
    }
    public var description: String {
        switch rejection {
        case .invalid: rejection.description
        default: "book \(book): \(rejection)"
        }
    }
}

extension BookID {
    /// Parses an id a caller typed; an unparsable id names no book.
    public static func parse(_ text: String) throws(NotFound) -> BookID {
        guard let id = BookID(text) else { throw NotFound("book", text) }
        return id
    }
}

extension CommandRunner {
    /// Loads a book that must be in the catalogue, or throws `NotFound`.
    func loadBook(_ id: BookID) async throws -> Loaded<BookAggregate> {
        let loaded = try await load(BookAggregate.self, .book(id))
        guard case .inCatalogue = loaded.state else { throw NotFound("book", id.description) }
        return loaded
    }
}
