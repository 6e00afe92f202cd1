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
    /// The catalogue has a book with this ISBN already (`existing`, titled `title`), and no second
    /// record was asked for.
    case duplicateISBN(ISBN, existing: BookID, title: String)
}
