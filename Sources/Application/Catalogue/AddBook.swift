import Domain

/// Adds a book with its copies to the catalogue. An ISBN the catalogue has already is refused,
/// naming that book, unless a second record is asked for (`allowDuplicate`).
public struct AddBook: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    public func execute(_ draft: BookDraft, copies: Int, allowDuplicate: Bool = false, by principal: Principal) async throws
        -> CatalogueEntry
    {
        try Authorization.require(.addBook, by: principal)
        let id = BookID(runner.ids.next())
        try await runner.transact(by: principal) { transaction in
            let book = try await transaction.load(BookAggregate.self, .book(id))
            let events = try transaction.decide(.add(id, draft, copies: copies), on: book) { BookRefused(id, $0) }
            var claims = ISBNClaims(runner: runner, catalogue: catalogue)
            try await claims.follow(id, from: book.state, events, allowDuplicate: allowDuplicate)
            claims.record(in: &transaction)
        }
        guard let entry = try await catalogue.entry(id) else { throw NotFound(.book, id.description) }
        return entry
    }
}
