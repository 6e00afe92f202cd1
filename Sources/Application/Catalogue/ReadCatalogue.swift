import Domain

/// Lists the catalogue: sorted, paged, optionally searched; borrowers shown only to those who may see them.
public struct ListBooks: Sendable {
    let catalogue: any Catalogue
    let privacy: CheckoutPrivacy

    public func execute(_ query: CatalogueQuery, by principal: Principal = .anonymous) async throws -> Page<CatalogueEntry> {
        try query.validate()
        let page = try await catalogue.page(query)
        return Page(items: try await privacy.redact(page.items, for: principal), total: page.total, offset: page.offset, limit: page.limit)
    }
}

/// Shows one book of the catalogue; its last borrower only to those who may see it.
public struct ShowBook: Sendable {
    let catalogue: any Catalogue
    let privacy: CheckoutPrivacy

    public func execute(_ id: BookID, by principal: Principal = .anonymous) async throws -> CatalogueEntry {
        guard let entry = try await catalogue.entry(id) else { throw NotFound("book", id.description) }
        return try await privacy.redact([entry], for: principal)[0]
    }
}
