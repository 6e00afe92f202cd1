import Domain

/// The catalogue refused a command about one book; says which book (by title when known) and why.
public struct BookRefused: MessageConvertible, Equatable, Sendable {
    public let book: BookID
    /// The book's title as the use case loaded it, so a refusal names the book as people know it.
    public let title: String?
    public let rejection: BookRejection
    public init(_ book: BookID, _ rejection: BookRejection, title: String? = nil) {
        self.book = book
        self.rejection = rejection
        self.title = title
    }
    /// A refusal about the book in `state`, titled as it is there.
    public init(_ book: BookID, _ rejection: BookRejection, in state: BookState) {
        self.init(book, rejection, title: state.title)
    }

    public var message: Message { Self.message(rejection, book: book, title: title) }

    /// What `rejection` says about `book` (nil when the rejection alone is known).
    static func message(_ rejection: BookRejection, book: BookID?, title: String?) -> Message {
        func name(_ id: BookID) -> BookName { BookName(book ?? id, title: title) }
        return switch rejection {
        case .invalid(let errors): .invalidInput(errors)
        case .notInCatalogue: .notFound(.book, id: book?.description ?? "")
        case .alreadyInCatalogue(let id): .bookAlreadyInCatalogue(name(id))
        case .copiesOnLoan(let id, let onLoan): .copiesOnLoan(name(id), onLoan: onLoan)
        case .fewerCopiesThanOnLoan(let id, let requested, let onLoan):
            .fewerCopiesThanOnLoan(name(id), requested: requested, onLoan: onLoan)
        case .noCopyAvailable(let id, let copies): .noCopyAvailable(name(id), copies: copies)
        // The duplicate names the book that has the ISBN; the refused one was never added.
        case .duplicateISBN(let isbn, let existing, let title): .duplicateISBN(isbn.isbn13, existing: BookName(existing, title: title))
        }
    }
}

extension BookState {
    /// The book's title while it is in the catalogue.
    public var title: String? {
        guard case .inCatalogue(let book) = self else { return nil }
        return book.details.title
    }
}

extension BookID {
    /// Parses an id a caller typed; an unparsable id names no book.
    public static func parse(_ text: String) throws(NotFound) -> BookID {
        guard let id = BookID(text) else { throw NotFound(.book, text) }
        return id
    }
}

extension CommandRunner {
    /// Loads a book that must be in the catalogue, or throws `NotFound`.
    func loadBook(_ id: BookID) async throws -> Loaded<BookAggregate> {
        let loaded = try await load(BookAggregate.self, .book(id))
        guard case .inCatalogue = loaded.state else { throw NotFound(.book, id.description) }
        return loaded
    }
}
