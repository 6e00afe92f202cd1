import Domain

/// Lists the catalogue: sorted, paged, optionally searched; borrowers shown only to those who may see them.
public struct ListBooks: Sendable {
    let catalogue: any Catalogue
    let privacy: CheckoutPrivacy

    public func execute(_ query: CatalogueQuery, page: PageRequest = .first, by principal: Principal = .anonymous) async throws
        -> Page<CatalogueEntry>
    {
        try query.validate()
        return try await catalogue.page(query, page).with { try await privacy.redact($0, for: principal) }
    }
}

/// Shows one book of the catalogue; its last borrower only to those who may see it.
public struct ShowBook: Sendable {
    let catalogue: any Catalogue
    let privacy: CheckoutPrivacy

    public func execute(_ id: BookID, by principal: Principal = .anonymous) async throws -> CatalogueEntry {
        guard let entry = try await catalogue.entry(id) else { throw NotFound(.book, id.description) }
        return try await privacy.redact([entry], for: principal)[0]
    }

    /// Every book of the catalogue in one read (an old app's whole list), in the order added,
    /// borrowers shown as `execute` shows them.
    public func all(by principal: Principal = .anonymous) async throws -> [CatalogueEntry] {
        try await privacy.redact(try await catalogue.all(), for: principal)
    }
}
