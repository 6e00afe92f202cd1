/// The catalogue's rules, one small function each: a rejection, or nil when the rule holds.
enum BookRules {
    static func copiesInRange(_ total: Int, field: String = "copies") -> BookRejection? {
        guard total < 1 || total > BookLimits.copies else { return nil }
        return .invalid([FieldError(field, total < 1 ? .noCopies(wouldBe: total) : .outOfRange(min: 1, max: BookLimits.copies))])
    }

    /// Never fewer copies than are out on loan.
    static func keepsCopiesOnLoan(_ book: CataloguedBook, _ total: Int) -> BookRejection? {
        guard total < book.onLoan else { return nil }
        return .fewerCopiesThanOnLoan(book: book.id, requested: total, onLoan: book.onLoan)
    }

    /// A loan needs a copy on the shelf.
    static func copyAvailable(_ book: CataloguedBook) -> BookRejection? {
        book.available > 0 ? nil : .noCopyAvailable(book: book.id, copies: book.copies)
    }

    /// A book with copies out cannot leave the catalogue.
    static func nothingOnLoan(_ book: CataloguedBook) -> BookRejection? {
        guard book.onLoan > 0 else { return nil }
        return .copiesOnLoan(book: book.id, onLoan: book.onLoan)
    }

    /// Validates details and copies together so that all field errors come back at once.
    static func validate(_ draft: BookDraft, copies: Int) throws(BookRejection) -> BookDetails {
        var errors: [FieldError] = []
        let details = draft.validate(into: &errors)
        if case .invalid(let copyErrors)? = copiesInRange(copies) { errors += copyErrors }
        guard errors.isEmpty else { throw .invalid(errors) }
        return details
    }

    /// Throws the first rejection of the list.
    static func check(_ rejections: BookRejection?...) throws(BookRejection) {
        if let first = rejections.compactMap({ $0 }).first { throw first }
    }
}
