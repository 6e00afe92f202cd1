/// Why the catalogue refuses a command about a book.
public enum BookRejection: Error, Equatable, Sendable {
    /// One or more fields are invalid; all of them are listed.
    case invalid([FieldError])
    /// The stream holds no book, or one that was withdrawn.
    case notInCatalogue
    /// A book with this id exists already, with other details.
    case alreadyInCatalogue(BookID)
    /// The book cannot be withdrawn while copies are lent.
    case copiesOnLoan(book: BookID, onLoan: Int)
    /// The number of copies cannot fall below the copies lent.
    case fewerCopiesThanOnLoan(book: BookID, requested: Int, onLoan: Int)
    /// Every copy is out on loan.
    case noCopyAvailable(book: BookID, copies: Int)
}

extension BookRejection: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalid(let errors): errors.map(\.description).joined(separator: "; ")
        case .notInCatalogue: "the book is not in the catalogue"
        case .alreadyInCatalogue(let id): "book \(id) is already in the catalogue"
        case .copiesOnLoan(let id, let onLoan):
            "book \(id) has \(onLoan) \(onLoan == 1 ? "copy" : "copies") on loan; it can be withdrawn once they are returned"
        case .fewerCopiesThanOnLoan(let id, let requested, let onLoan):
            "book \(id) has \(onLoan) copies on loan, so it cannot have only \(requested)"
        case .noCopyAvailable(let id, let copies):
            "no copy of book \(id) is available: all \(copies) \(copies == 1 ? "is" : "are") on loan"
        }
    }
}
