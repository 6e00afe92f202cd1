import Domain

/// Edits a book's details and, optionally, the number of copies the library owns, in one step.
/// A new ISBN the catalogue has already is refused as `AddBook` refuses it. Copies added are set
/// aside for members waiting for the book; copies kept for them cannot be removed.
public struct EditBook: Sendable {
    let runner: CommandRunner
    let catalogue: any Catalogue
    let policy: LoanPolicy

    /// With `ifMatch`, the edit is made only on one of those versions of the book (`ResourceVersions.book`),
    /// else refused as `StaleVersion`.
    public func execute(
        _ id: BookID, changes: BookChanges, copies: Int? = nil, allowDuplicate: Bool = false, ifMatch: Set<ResourceVersion>? = nil,
        by principal: Principal
    ) async throws -> CatalogueEntry {
        try Authorization.require(.editBook, by: principal)
        try await runner.transact(by: principal) { transaction in
            try await plan(id, changes, copies, allowDuplicate: allowDuplicate, ifMatch: ifMatch, &transaction)
        }
        guard let entry = try await catalogue.entry(id) else { throw NotFound(.book, id.description) }
        return entry
    }

    /// Whether the edit would be accepted now: the same checks and refusals as `execute`, and
    /// nothing recorded (a caller doing more than the edit asks first, then does the rest).
    public func check(_ id: BookID, changes: BookChanges, by principal: Principal) async throws {
        try Authorization.require(.editBook, by: principal)
        var transaction = Transaction(runner: runner)
        try await plan(id, changes, nil, allowDuplicate: false, &transaction)
    }

    /// Loads the book, decides the edit and its ISBN claims and holds, into `transaction`.
    private func plan(
        _ id: BookID, _ changes: BookChanges, _ copies: Int?, allowDuplicate: Bool, ifMatch: Set<ResourceVersion>? = nil,
        _ transaction: inout Transaction
    ) async throws {
        let book = try await runner.loadBook(id)
        let events = try decide(id, changes, copies, book.state)
        // After the edit's own checks: a refused field is said whatever the version.
        var queue: Loaded<HoldQueueAggregate>?
        if ifMatch != nil {
            let loaded = try await transaction.load(HoldQueueAggregate.self, .holds(id))
            try ResourceVersion.require(ifMatch, current: ResourceVersion([book.version, loaded.version]))
            queue = loaded
        }
        transaction.record(book, events)
        var claims = ISBNClaims(runner: runner, catalogue: catalogue)
        try await claims.follow(id, from: book.state, events, allowDuplicate: allowDuplicate)
        claims.record(in: &transaction)
        try await transaction.followHolds(id, from: book.state, events, now: runner.clock.now(), policy: policy)
        // The waiting list is part of the version asked for: a hold placed meanwhile makes this attempt run again.
        if let queue { transaction.expectUnchangedUnlessRecorded(queue) }
    }

    /// The edit's events followed by the copies' events; field errors of both are reported together.
    private func decide(_ id: BookID, _ changes: BookChanges, _ copies: Int?, _ state: BookState) throws(BookRefused) -> [BookEvent] {
        var events: [BookEvent] = []
        var fieldErrors: [FieldError] = []
        do {
            events = try BookAggregate.decide(.edit(changes), state)
        } catch {
            guard case .invalid(let errors) = error else { throw BookRefused(id, error, in: state) }
            fieldErrors = errors
        }
        if let copies {
            do {
                events += try BookAggregate.decide(.setCopies(copies), BookAggregate.fold(events, from: state))
            } catch {
                guard case .invalid(let errors) = error, !fieldErrors.isEmpty else { throw BookRefused(id, error, in: state) }
                fieldErrors += errors
            }
        }
        if !fieldErrors.isEmpty { throw BookRefused(id, .invalid(fieldErrors)) }
        return events
    }
}
