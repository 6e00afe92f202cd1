import APIContract
import Application
import Domain
import OpenAPIRuntime

/// The generated API protocol, implemented by calling the library's use cases. Holds no rules.
/// Operations that need a login check the principal before reading their input (ids, required
/// combinations of parameters), so that an anonymous caller gets a 401 and a member on a
/// librarian's operation a 403, whatever it sent.
struct LibraryAPI: APIProtocol {
    let library: Library

    /// Who calls, as the authentication middleware found out.
    var principal: Principal { RequestScope.principal }

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        do {
            let position = try await library.health.headPosition()
            return .ok(.init(body: .json(.init(status: .ok, position: position))))
        } catch {
            throw StorageUnavailable()
        }
    }

    func listBooks(_ input: Operations.ListBooks.Input) async throws -> Operations.ListBooks.Output {
        let q = input.query
        let query = CatalogueQuery(sort: q.sort.flatMap { CatalogueSort(rawValue: $0.rawValue) } ?? .newest, text: q.q)
        let page = try PageRequest(limit: q.limit, offset: q.offset)
        return .ok(.init(body: .json(.init(try await library.catalogue.listBooks.execute(query, page: page, by: principal)))))
    }

    func createBook(_ input: Operations.CreateBook.Input) async throws -> Operations.CreateBook.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let draft = BookDraft(
            title: body.title, authors: body.authors, isbn: body.isbn, publisher: body.publisher,
            categories: body.categories ?? [], coverURL: body.coverUrl, description: body.description)
        let added = try await library.catalogue.addBook.execute(
            draft, copies: body.copies ?? 1, allowDuplicate: body.allowDuplicate ?? false, by: principal)
        let (entry, tag) = try await versioned(added.id)
        return .created(.init(headers: .init(location: Locations.book(entry.id), eTag: tag), body: .json(.init(entry))))
    }

    func getBook(_ input: Operations.GetBook.Input) async throws -> Operations.GetBook.Output {
        let id = try BookID.parse(input.path.id)
        let (entry, tag) = try await versioned(id)
        if EntityTags.unchanged(ifNoneMatch: input.headers.ifNoneMatch, current: tag) {
            return .notModified(.init(headers: .init(eTag: tag)))
        }
        return .ok(.init(headers: .init(eTag: tag), body: .json(.init(entry))))
    }

    /// The book as the caller sees it and its `ETag`, the version read first (the answer is never
    /// older than its tag says), with the last borrower's name when the answer shows it.
    private func versioned(_ id: BookID) async throws -> (CatalogueEntry, String) {
        let version = try await library.catalogue.versions.book(id)
        let entry = try await library.catalogue.showBook.execute(id, by: principal)
        return (entry, EntityTags.tag(version, showing: entry.lastCheckout?.name))
    }

    func updateBook(_ input: Operations.UpdateBook.Input) async throws -> Operations.UpdateBook.Output {
        guard case .json(let patch) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let changes = BookChanges(
            title: patch.title, authors: patch.authors, isbn: patch.isbn, publisher: patch.publisher,
            categories: patch.categories, coverURL: patch.coverUrl, description: patch.description)
        let id = try BookID.parse(input.path.id)
        _ = try await library.catalogue.editBook.execute(
            id, changes: changes, copies: patch.copies, allowDuplicate: patch.allowDuplicate ?? false,
            ifMatch: try EntityTags.accepted(ifMatch: input.headers.ifMatch), by: principal)
        let (entry, tag) = try await versioned(id)
        return .ok(.init(headers: .init(eTag: tag), body: .json(.init(entry))))
    }

    func deleteBook(_ input: Operations.DeleteBook.Input) async throws -> Operations.DeleteBook.Output {
        let id = try BookID.parse(input.path.id)
        let asked = try EntityTags.accepted(ifMatch: input.headers.ifMatch)
        try await library.catalogue.withdrawBooks.execute([id], ifMatch: asked.map { [id: $0] } ?? [:], by: principal)
        return .noContent(.init())
    }

    func clearCatalogue(_ input: Operations.ClearCatalogue.Input) async throws -> Operations.ClearCatalogue.Output {
        guard input.query.confirm else {
            throw InvalidInput("confirm", .confirmationNeeded)
        }
        let report = try await library.catalogue.clearCatalogue.execute(by: principal)
        return .ok(.init(body: .json(.init(report))))
    }
}
