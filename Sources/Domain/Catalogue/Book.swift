// The Book aggregate: a catalogue record with the copies the library owns.

/// What happened to a book. Stored in the log; never change a case's meaning.
public enum BookEvent: Equatable, Sendable {
    case added(BookAdded)
    case edited(BookEdited)
    case copiesAdded(CopiesChanged)
    case copiesRemoved(CopiesChanged)
    case withdrawn(BookWithdrawn)
    case copyLent(CopyMovement)
    case copyReturned(CopyMovement)
}

/// How the log stores each case: its name, written once here, and its payload.
extension BookEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case added = "book.added.v1"
        case edited = "book.edited.v1"
        case copiesAdded = "book.copies-added.v1"
        case copiesRemoved = "book.copies-removed.v1"
        case withdrawn = "book.withdrawn.v1"
        case copyLent = "book.copy-lent.v1"
        case copyReturned = "book.copy-returned.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .added(let e): (.added, e)
        case .edited(let e): (.edited, e)
        case .copiesAdded(let e): (.copiesAdded, e)
        case .copiesRemoved(let e): (.copiesRemoved, e)
        case .withdrawn(let e): (.withdrawn, e)
        case .copyLent(let e): (.copyLent, e)
        case .copyReturned(let e): (.copyReturned, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> BookEvent {
        switch type {
        case .added: .added(try payload.decode())
        case .edited: .edited(try payload.decode())
        case .copiesAdded: .copiesAdded(try payload.decode())
        case .copiesRemoved: .copiesRemoved(try payload.decode())
        case .withdrawn: .withdrawn(try payload.decode())
        case .copyLent: .copyLent(try payload.decode())
        case .copyReturned: .copyReturned(try payload.decode())
        }
    }
}

/// A copy went out on a loan or came back; `onLoan` is the number out afterwards.
public struct CopyMovement: Equatable, Sendable, Codable {
    public let book: BookID
    public let loan: LoanID
    public let onLoan: Int
    public init(book: BookID, loan: LoanID, onLoan: Int) {
        self.book = book
        self.loan = loan
        self.onLoan = onLoan
    }
}

/// A book entered the catalogue.
public struct BookAdded: Equatable, Sendable, Codable {
    public let book: BookID
    public let details: BookDetails
    public let copies: Int
    public init(book: BookID, details: BookDetails, copies: Int) {
        self.book = book
        self.details = details
        self.copies = copies
    }
}

/// A book's details changed; carries the whole new record.
public struct BookEdited: Equatable, Sendable, Codable {
    public let book: BookID
    public let details: BookDetails
    public init(book: BookID, details: BookDetails) {
        self.book = book
        self.details = details
    }
}

/// Copies were added or removed; `total` is the number owned afterwards.
public struct CopiesChanged: Equatable, Sendable, Codable {
    public let book: BookID
    public let count: Int
    public let total: Int
    public init(book: BookID, count: Int, total: Int) {
        self.book = book
        self.count = count
        self.total = total
    }
}

/// A book left the catalogue.
public struct BookWithdrawn: Equatable, Sendable, Codable {
    public let book: BookID
    public init(book: BookID) { self.book = book }
}

/// A book in the catalogue, with its copies.
public struct CataloguedBook: Equatable, Sendable {
    public var id: BookID
    public var details: BookDetails
    public var copies: Int
    /// Copies lent out now; circulation moves this.
    public var onLoan: Int
    public var available: Int { copies - onLoan }

    public init(id: BookID, details: BookDetails, copies: Int, onLoan: Int = 0) {
        self.id = id
        self.details = details
        self.copies = copies
        self.onLoan = onLoan
    }
}

/// Where a book's stream stands.
public enum BookState: Equatable, Sendable {
    case absent
    case inCatalogue(CataloguedBook)
    case withdrawn(BookID)
}

/// What a librarian asks of a book.
public enum BookCommand: Equatable, Sendable {
    case add(BookID, BookDraft, copies: Int)
    case edit(BookChanges)
    case addCopies(Int)
    case removeCopies(Int)
    /// Adds or removes copies so that the library owns exactly this many.
    case setCopies(Int)
    case withdraw
    /// Lends one copy on a loan.
    case lend(LoanID)
    /// Takes back the copy of a loan.
    case takeBack(LoanID)
}

/// The Book aggregate's decisions and fold.
public enum BookAggregate: Aggregate {
    public static let initial = BookState.absent

    public static func evolve(_ state: BookState, _ event: BookEvent) -> BookState {
        switch (state, event) {
        case (_, .added(let e)):
            return .inCatalogue(CataloguedBook(id: e.book, details: e.details, copies: e.copies))
        case (.inCatalogue(var book), .edited(let e)):
            book.details = e.details
            return .inCatalogue(book)
        case (.inCatalogue(var book), .copiesAdded(let e)), (.inCatalogue(var book), .copiesRemoved(let e)):
            book.copies = e.total
            return .inCatalogue(book)
        case (_, .withdrawn(let e)):
            return .withdrawn(e.book)
        case (.inCatalogue(var book), .copyLent(let e)), (.inCatalogue(var book), .copyReturned(let e)):
            book.onLoan = e.onLoan
            return .inCatalogue(book)
        case (.absent, _), (.withdrawn, _):
            return state  // events after withdrawal do not exist in a valid log
        }
    }

    public static func decide(_ command: BookCommand, _ state: BookState) throws(BookRejection) -> [BookEvent] {
        if case .add(let id, let draft, let copies) = command {
            return try add(id, draft, copies: copies, state)
        }
        if case .withdrawn = state, command == .withdraw { return [] }
        guard case .inCatalogue(let book) = state else { throw .notInCatalogue }
        switch command {
        case .add: return []
        case .edit(let changes): return try edit(book, changes)
        case .addCopies(let count): return try setCopies(book, book.copies + count, field: "count")
        case .removeCopies(let count): return try setCopies(book, book.copies - count, field: "count")
        case .setCopies(let total): return try setCopies(book, total, field: "copies")
        case .withdraw:
            try BookRules.check(BookRules.nothingOnLoan(book))
            return [.withdrawn(BookWithdrawn(book: book.id))]
        case .lend(let loan):
            try BookRules.check(BookRules.copyAvailable(book))
            return [.copyLent(CopyMovement(book: book.id, loan: loan, onLoan: book.onLoan + 1))]
        case .takeBack(let loan):
            return [.copyReturned(CopyMovement(book: book.id, loan: loan, onLoan: max(0, book.onLoan - 1)))]
        }
    }

    private static func add(_ id: BookID, _ draft: BookDraft, copies: Int, _ state: BookState) throws(BookRejection) -> [BookEvent] {
        let details = try BookRules.validate(draft, copies: copies)
        switch state {
        case .absent:
            return [.added(BookAdded(book: id, details: details, copies: copies))]
        case .inCatalogue(let book) where book.details == details && book.copies == copies:
            return []  // the same add again: already done
        case .inCatalogue, .withdrawn:
            throw .alreadyInCatalogue(id)
        }
    }

    private static func edit(_ book: CataloguedBook, _ changes: BookChanges) throws(BookRejection) -> [BookEvent] {
        let details = try BookRules.validate(changes.applied(to: book.details), copies: book.copies)
        guard details != book.details else { return [] }
        return [.edited(BookEdited(book: book.id, details: details))]
    }

    private static func setCopies(_ book: CataloguedBook, _ total: Int, field: String) throws(BookRejection) -> [BookEvent] {
        try BookRules.check(BookRules.copiesInRange(total, field: field), BookRules.keepsCopiesOnLoan(book, total))
        let change = CopiesChanged(book: book.id, count: abs(total - book.copies), total: total)
        if total > book.copies { return [.copiesAdded(change)] }
        if total < book.copies { return [.copiesRemoved(change)] }
        return []
    }
}
