import Application
import Foundation
import OpenAPIRuntime

/// Open Library search through the cache.
extension LibraryAPI {
    func searchBooks(_ input: Operations.SearchBooks.Input) async throws -> Operations.SearchBooks.Output {
        let q = input.query
        let query = SearchQuery(
            title: q.title, author: q.author, text: q.q, sort: q.sort.flatMap { SearchSort(rawValue: $0.rawValue) } ?? .relevance,
            limit: q.limit ?? 20, offset: q.offset ?? 0)
        let page = try await library.search.execute(query)
        return .ok(.init(body: .json(.init(
            results: page.results.map(Components.Schemas.Work.init), total: page.total, offset: page.offset, limit: page.limit,
            nextOffset: page.nextOffset, stale: page.stale))))
    }
}

extension Components.Schemas.Work {
    init(_ w: WorkResult) {
        self.init(
            workKey: w.workKey, title: w.title, authors: w.authors, firstPublishYear: w.firstPublishYear, editionCount: w.editionCount,
            isbns: w.isbns, coverId: w.coverID, ratingAverage: w.ratingAverage, ratingCount: w.ratingCount,
            readingLogCount: w.readingLogCount, covers: w.covers.map { .init(small: $0.small, medium: $0.medium, large: $0.large) })
    }
}
