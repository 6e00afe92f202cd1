import Domain

/// Adds a book with its copies to the catalogue.
public struct AddBook: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    public func execute(_ draft: BookDraft, copies: Int, by principal: Principal) async throws -> CatalogueEntry {
        try principal.requireLibrarian()
        let id = BookID(runner.ids.next())
        try await runner.retrying {
            let loaded = try await runner.load(BookAggregate.self, .book(id))
            let events = try runner.decide(id, .add(id, draft, copies: copies), loaded.state)
            try await runner.append([loaded.decision(events)], by: principal)
        }
        guard let entry = try await catalogue.entry(id) else { throw NotFound("book", id.description) }
        return entry
    }
}
