import Domain

/// Edits a book's details and, optionally, the number of copies the library owns, in one step.
public struct EditBook: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    public func execute(_ id: BookID, changes: BookChanges, copies: Int? = nil, by principal: Principal) async throws -> CatalogueEntry {
        try Authorization.require(.editBook, by: principal)
        try await runner.transact(by: principal) { transaction in
            let book = try await runner.loadBook(id)
            transaction.record(book, try decide(id, changes, copies, book.state))
        }
        guard let entry = try await catalogue.entry(id) else { throw NotFound("book", id.description) }
        return entry
    }

    /// The edit's events followed by the copies' events; field errors of both are reported together.
    private func decide(_ id: BookID, _ changes: BookChanges, _ copies: Int?, _ state: BookState) throws(BookRefused) -> [BookEvent] {
        var events: [BookEvent] = []
        var fieldErrors: [FieldError] = []
        do {
            events = try BookAggregate.decide(.edit(changes), state)
        } catch {
            guard case .invalid(let errors) = error else { throw BookRefused(id, error) }
            fieldErrors = errors
        }
        if let copies {
            do {
                events += try BookAggregate.decide(.setCopies(copies), BookAggregate.fold(events, from: state))
            } catch {
                guard case .invalid(let errors) = error, !fieldErrors.isEmpty else { throw BookRefused(id, error) }
                fieldErrors += errors
            }
        }
        if !fieldErrors.isEmpty { throw BookRefused(id, .invalid(fieldErrors)) }
        return events
    }
}
