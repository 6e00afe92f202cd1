import Foundation

/// The sentences of a book's page with the title or numbers in them, in the reader's language.
struct BookTexts: Hashable, Sendable {
    /// "2 of 3 on the shelf, 1 on loan, 1 kept for members who waited".
    var availability = ""
    /// "1 waiting".
    var waiting = ""
    /// "You are number 2 in the waiting list."; empty when the reader is not waiting.
    var holdPlace = ""
    /// The question before the book is deleted.
    var confirmDelete = ""
    /// The cover's description, or the missing cover's.
    var coverAlt = ""

    init() {}

    init(_ book: BookView) {
        var parts = [t("web.book.onShelf", count: book.available, number(book.available), number(book.copies))]
        if book.onLoan > 0 { parts.append(t("web.book.onLoan", count: book.onLoan, number(book.onLoan))) }
        if book.setAside > 0 { parts.append(t("web.book.setAside", count: book.setAside, number(book.setAside))) }
        availability = parts.joined(separator: ", ")
        waiting = t("web.book.waiting", count: book.waiting, number(book.waiting))
        holdPlace = book.holdPosition.map { t("web.book.holdPlace", number($0)) } ?? ""
        confirmDelete = t("web.book.confirmDelete", book.title)
        coverAlt = Covers.alt(book.title, present: book.cover != nil)
    }
}
