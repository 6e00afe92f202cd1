import Domain

/// Adds a book with its copies to the catalogue.
public struct AddBook: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    public func execute(_ draft: BookDraft, copies: Int, by principal: Principal) async throws -> CatalogueEntry {
        try Authorization.require(.addBook, by: principal)
        let id = BookID(runner.ids.next())
        try await runner.transact(by: principal) { transaction in
            let book = try await transaction.load(BookAggregate.self, .book(id))
            try transaction.decide(.add(id, draft, copies: copies), on: book) { BookRefused(id, $0) }
        }
        guard let entry = try await catalogue.entry(id) else { throw NotFound("book", id.description) }
        return entry
    }
}
