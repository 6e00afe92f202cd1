import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// Open Library search through the cache.
extension LibraryAPI {
    func searchBooks(_ input: Operations.SearchBooks.Input) async throws -> Operations.SearchBooks.Output {
        let q = input.query
        let query = SearchQuery(
            title: q.title, author: q.author, text: q.q, sort: q.sort.flatMap { SearchSort(rawValue: $0.rawValue) } ?? .relevance,
            limit: q.limit ?? PageRequest.defaultLimit, offset: q.offset ?? 0)
        return .ok(.init(body: .json(.init(try await library.search.execute(query)))))
    }
}

/// Bookmarks, private to the member.
extension LibraryAPI {
    func listBookmarks(_ input: Operations.ListBookmarks.Input) async throws -> Operations.ListBookmarks.Output {
        let sort = input.query.sort.flatMap { BookmarkSort(rawValue: $0.rawValue) } ?? .newest
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        return .ok(.init(body: .json(.init(try await library.bookmarks.list(sort: sort, page: page, by: principal)))))
    }

    func bookmarkWork(_ input: Operations.BookmarkWork.Input) async throws -> Operations.BookmarkWork.Output {
        .ok(.init(body: .json(.init(try await library.bookmarks.add(work: input.path.key, by: principal)))))
    }

    func bookmarkBook(_ input: Operations.BookmarkBook.Input) async throws -> Operations.BookmarkBook.Output {
        return .ok(.init(body: .json(.init(try await library.bookmarks.add(book: try BookID.parse(input.path.id), by: principal)))))
    }

    func removeBookmark(_ input: Operations.RemoveBookmark.Input) async throws -> Operations.RemoveBookmark.Output {
        try await library.bookmarks.remove(input.path.key, by: principal)
        return .noContent(.init())
    }
}

extension LibraryAPI {
    func importBook(_ input: Operations.ImportBook.Input) async throws -> Operations.ImportBook.Output {
        guard case .json(let b) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let overrides = BookChanges(
            title: b.title, authors: b.authors, publisher: b.publisher, categories: b.categories, coverURL: b.coverUrl,
            description: b.description)
        let entry = try await library.importBook.execute(
            isbn: b.isbn, workKey: b.workKey, overrides: overrides, copies: b.copies ?? 1,
            allowDuplicate: b.allowDuplicate ?? false, by: principal)
        return .created(.init(headers: .init(location: Locations.book(entry.id)), body: .json(.init(entry))))
    }
}
