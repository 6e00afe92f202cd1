// The ISBNClaim aggregate, one stream per ISBN (`isbn-9780441172719`): the catalogue books that
// carry it. Adding a book, or editing its ISBN, claims the ISBN in the same atomic append as the
// book's event, so two librarians adding one ISBN at once cannot both make a record: the second
// is refused unless it asks for a second record. Withdrawing the book, or editing the ISBN away,
// releases it.

/// What happened to an ISBN. Stored in the log; never change a case's meaning.
public enum ISBNClaimEvent: Equatable, Sendable {
    case claimed(ISBNHolder)
    case released(ISBNHolder)
}

/// How the log stores each case: its name, written once here, and its payload.
extension ISBNClaimEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case claimed = "isbn.claimed.v1"
        case released = "isbn.released.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .claimed(let e): (.claimed, e)
        case .released(let e): (.released, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> ISBNClaimEvent {
        switch type {
        case .claimed: .claimed(try payload.decode())
        case .released: .released(try payload.decode())
        }
    }
}

/// A book that took, or gave up, an ISBN.
public struct ISBNHolder: Equatable, Sendable, Codable {
    public let isbn: ISBN
    public let book: BookID
    public init(isbn: ISBN, book: BookID) {
        self.isbn = isbn
        self.book = book
    }
}

/// The books holding one ISBN, oldest claim first.
public struct ISBNClaimState: Equatable, Sendable {
    public var holders: [BookID]
    /// Holders the stream does not record yet: books catalogued before ISBNs were claimed, which
    /// the first event written to the stream records first.
    public var unrecorded: [BookID]

    public init(holders: [BookID] = [], unrecorded: [BookID] = []) {
        self.holders = holders
        self.unrecorded = unrecorded
    }

    /// The state of a stream never written, for an ISBN the catalogue already gives `books`.
    public static func catalogued(_ books: [BookID]) -> ISBNClaimState {
        ISBNClaimState(holders: books, unrecorded: books)
    }
}

/// What the catalogue asks of an ISBN.
public enum ISBNClaimCommand: Equatable, Sendable {
    /// `book` takes the ISBN; a second holder only when `allowDuplicate`.
    case claim(ISBN, by: BookID, allowDuplicate: Bool)
    /// `book` gives the ISBN up (withdrawn, or its ISBN changed).
    case release(ISBN, by: BookID)

    /// The ISBN the command is about.
    public var isbn: ISBN {
        switch self {
        case .claim(let isbn, _, _), .release(let isbn, _): isbn
        }
    }
}

/// Why an ISBN cannot be claimed.
public enum ISBNClaimRejection: Error, Equatable, Sendable {
    /// A book of the catalogue has the ISBN already, and no second record was asked for.
    case taken(by: BookID)
}

/// The ISBNClaim aggregate's decisions and fold.
public enum ISBNClaimAggregate: Aggregate {
    public static let initial = ISBNClaimState()

    public static func evolve(_ state: ISBNClaimState, _ event: ISBNClaimEvent) -> ISBNClaimState {
        var state = state
        switch event {
        case .claimed(let e):
            if !state.holders.contains(e.book) { state.holders.append(e.book) }
            state.unrecorded.removeAll { $0 == e.book }
        case .released(let e):
            state.holders.removeAll { $0 == e.book }
            state.unrecorded.removeAll { $0 == e.book }
        }
        return state
    }

    public static func decide(_ command: ISBNClaimCommand, _ state: ISBNClaimState) throws(ISBNClaimRejection) -> [ISBNClaimEvent] {
        let events: [ISBNClaimEvent]
        switch command {
        case .claim(let isbn, let book, let allowDuplicate):
            if state.holders.contains(book) { return [] }
            if let rejection = oneRecordPerISBN(state, allowDuplicate: allowDuplicate) { throw rejection }
            events = [.claimed(ISBNHolder(isbn: isbn, book: book))]
        case .release(let isbn, let book):
            guard state.holders.contains(book) else { return [] }
            events = [.released(ISBNHolder(isbn: isbn, book: book))]
        }
        // The first event written records the holders the catalogue had before claims were kept.
        let isbn = command.isbn
        return state.unrecorded.map { .claimed(ISBNHolder(isbn: isbn, book: $0)) } + events
    }

    /// The rule: an ISBN names one catalogue record (a title with N copies is one record), unless
    /// the librarian asks for a second one explicitly.
    static func oneRecordPerISBN(_ state: ISBNClaimState, allowDuplicate: Bool) -> ISBNClaimRejection? {
        guard let first = state.holders.first, !allowDuplicate else { return nil }
        return .taken(by: first)
    }
}

extension BookState {
    /// The ISBN this book holds: a book in the catalogue holds its own, a withdrawn one none.
    public var heldISBN: ISBN? {
        guard case .inCatalogue(let book) = self else { return nil }
        return book.details.isbn
    }
}
