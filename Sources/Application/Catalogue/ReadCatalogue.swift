import Domain

/// Lists the catalogue: sorted, paged, optionally searched.
public struct ListBooks: Sendable {
    let catalogue: any Catalogue

    public func execute(_ query: CatalogueQuery) async throws -> Page<CatalogueEntry> {
        try query.validate()
        return try await catalogue.page(query)
    }
}

/// Shows one book of the catalogue.
public struct ShowBook: Sendable {
    let catalogue: any Catalogue

    public func execute(_ id: BookID) async throws -> CatalogueEntry {
        guard let entry = try await catalogue.entry(id) else { throw NotFound("book", id.description) }
        return entry
    }
}
