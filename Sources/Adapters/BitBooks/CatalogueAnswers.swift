import Application
import Domain

extension BitBooksSession {
    /// `GET_BOOKS`: the whole catalogue, in the order books were added, as anyone sees it (so
    /// one computation serves every connection asking at the same time).
    func books() async throws -> String {
        let library = library
        return try await bookList.answer {
            // One read of the whole catalogue, not a page at a time.
            try ProtocolJSON.encode(try await library.catalogue.showBook.all().map(BookJSON.init))
        }
    }

    /// `GET_BOOK ISBN`: one book, or a line saying there is none with that ISBN.
    func book(_ isbn: String) async throws -> String {
        guard let entry = try await entry(isbn: isbn) else { return Answer.noSuchISBN(isbn) }
        return try ProtocolJSON.encode(BookJSON(entry))
    }

    /// The catalogue's book with the ISBN `text` names, in any of its spellings: of several (a
    /// duplicate ISBN the librarian allowed), one whose copy is kept for the member (`keptFor`,
    /// the books of their ready holds), else the oldest with a copy on the shelf, else the oldest;
    /// nil for none, or for text that is no ISBN. (Found by outside walks: `LOAN` refused a book
    /// whose older record had every copy out while its newer one had copies on the shelf, then
    /// lent the newer one to a member whose kept copy was the older's.)
    func entry(isbn text: String, keptFor kept: Set<BookID> = []) async throws -> CatalogueEntry? {
        guard let isbn = try? ISBN(parsing: text) else { return nil }
        let query = CatalogueQuery(sort: .oldest, text: "isbn:\(isbn.isbn13)")
        let page = try await library.catalogue.listBooks.execute(query, page: PageRequest(limit: PageRequest.maxLimit))
        let records = page.items.filter { $0.details.isbn == isbn }
        return records.first { kept.contains($0.id) } ?? records.first { $0.available > 0 } ?? records.first
    }
}
