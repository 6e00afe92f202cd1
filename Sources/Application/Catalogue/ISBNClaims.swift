import Domain

/// Keeps the ISBN claims of one command in step with its books: each claim stream is loaded once
/// and every decision on it seen by the next, then all are recorded with the books' events, in
/// the same atomic append. The rule is `ISBNClaimAggregate`'s; this names the holding book, by id
/// and title, in a refusal.
struct ISBNClaims {
    let runner: CommandRunner
    let catalogue: any Catalogue
    private var claims: [ISBN: Claim] = [:]

    init(runner: CommandRunner, catalogue: any Catalogue) {
        self.runner = runner
        self.catalogue = catalogue
    }

    private struct Claim {
        let loaded: Loaded<ISBNClaimAggregate>
        var state: ISBNClaimState
        var events: [ISBNClaimEvent] = []
    }

    /// Claims or releases what `events` change in the ISBN `book` holds (it was in `state`).
    mutating func follow(_ book: BookID, from state: BookState, _ events: [BookEvent], allowDuplicate: Bool = false) async throws {
        let before = state.heldISBN
        let after = BookAggregate.fold(events, from: state).heldISBN
        guard before != after else { return }
        if let before { try await decide(.release(before, by: book), for: book) }
        if let after { try await decide(.claim(after, by: book, allowDuplicate: allowDuplicate), for: book) }
    }

    /// Records every claim decided in `transaction`.
    func record(in transaction: inout Transaction) {
        for claim in claims.values { transaction.record(claim.loaded, claim.events) }
    }

    private mutating func decide(_ command: ISBNClaimCommand, for book: BookID) async throws {
        let isbn = command.isbn
        var claim = try await load(isbn)
        do {
            let events = try ISBNClaimAggregate.decide(command, claim.state)
            claim.state = ISBNClaimAggregate.fold(events, from: claim.state)
            claim.events += events
        } catch {
            switch error {
            case .taken(let existing):
                throw BookRefused(book, .duplicateISBN(isbn, existing: existing, title: try await title(of: existing)))
            }
        }
        claims[isbn] = claim
    }

    /// The claim as decided so far in this command, else as stored; a stream never written starts
    /// from the books the catalogue gives the ISBN (catalogued before ISBNs were claimed).
    private func load(_ isbn: ISBN) async throws -> Claim {
        if let claim = claims[isbn] { return claim }
        let loaded = try await runner.load(ISBNClaimAggregate.self, .isbn(isbn))
        guard loaded.version == 0 else { return Claim(loaded: loaded, state: loaded.state) }
        return Claim(loaded: loaded, state: .catalogued(try await catalogue.books(withISBN: isbn)))
    }

    private func title(of book: BookID) async throws -> String {
        let loaded = try await runner.load(BookAggregate.self, .book(book))
        guard case .inCatalogue(let held) = loaded.state else { return "" }
        return held.details.title
    }
}
