import Domain

/// Edits a book's details and, optionally, the number of copies the library owns, in one step.
public struct EditBook: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue

    public func execute(_ id: BookID, changes: BookChanges, copies: Int? = nil, by principal: Principal) async throws -> CatalogueEntry {
        try principal.requireLibrarian()
        try await runner.retrying {
            let loaded = try await runner.loadBook(id)
            let events = try decide(id, changes, copies, loaded.state)
            try await runner.append([loaded.decision(events)], by: principal)
        }
        guard let entry = try await catalogue.entry(id) else { throw NotFound("book", id.description) }
        return entry
    }

    /// The edit's events followed by the copies' events; field errors of both are reported together.
    private func decide(_ id: BookID, _ changes: BookChanges, _ copies: Int?, _ state: BookState) throws(BookRefused) -> [BookEvent] {
        var events: [BookEvent] = []
        var fieldErrors: [FieldError] = []
        do {
            events = try runner.decide(id, .edit(changes), state)
        } catch let refused {
            guard case .invalid(let errors) = refused.rejection else { throw refused }
            fieldErrors = errors
        }
        if let copies {
            do {
                events += try runner.decide(id, .setCopies(copies), BookAggregate.fold(events, from: state))
            } catch let refused {
                guard case .invalid(let errors) = refused.rejection, !fieldErrors.isEmpty else { throw refused }
                fieldErrors += errors
            }
        }
        if !fieldErrors.isEmpty { throw BookRefused(id, .invalid(fieldErrors)) }
        return events
    }
}
