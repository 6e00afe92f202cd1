import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// Answers every path under a Prolific key: checks the key (an unknown one is a 404), reads the
/// route and the body, calls the use case as the key's librarian and writes its answer.
public struct ProlificResponder<Context: RequestContext>: HTTPResponder {
    let library: Library
    let settings: ProlificSettings

    public func respond(to request: Request, context: Context) async throws -> Response {
        let language = Language.reading(acceptLanguage: request.headers[.acceptLanguage])
        // The route's template, never the path: the path holds the key.
        context.coreContext.endpointPath.value = ProlificRoute.parse(request.uri.path)?.route.template
        return try await Reader.$language.withValue(language) { try await answer(request) }
    }

    private func answer(_ request: Request) async throws -> Response {
        guard let (key, route) = ProlificRoute.parse(request.uri.path) else { return ProlificAnswer.error(AppKeyRefused(.unknownKey)) }
        // Said back without the key (an answer may end up in a log), as the part after it.
        let path = String(request.uri.path.dropFirst(1 + AppKeyText.length + 1))
        do {
            let principal = try await library.appKeys.authenticate.execute(key: key)
            let method = request.method.rawValue
            // The key's librarian's rate for changes (the apps all come from one place: no address rate).
            if request.method != .get, request.method != .head { _ = try library.rates.admit(.write, client: nil, by: principal) }
            guard route.allowed.contains(method) else {
                if route == .unknown { throw ProlificRequestRefused.noSuchPath(path) }
                throw ProlificRequestRefused.methodNotAllowed(method: method, path: path, allowed: route.allowed)
            }
            let books = ProlificBooks(library: library, principal: principal, key: key)
            switch (route, request.method) {
            case (.books, .get), (.books, .head): return try await books.list()
            case (.books, .post): return try await books.add(try await body(request))
            case (.book(let number), .get), (.book(let number), .head): return try await books.show(try await books.id(number))
            case (.book(let number), .put): return try await books.change(try await books.id(number), try await body(request))
            case (.book(let number), .delete): return try await books.delete(try await books.id(number), number: number)
            case (.clean, _): return try await books.clean()
            default: throw ProlificRequestRefused.noSuchPath(path)
            }
        } catch {
            return ProlificAnswer.error(Self.numbered(error, route))
        }
    }

    /// A book not found, named by the app's number (the use cases name it by its id, which the
    /// apps never see).
    static func numbered(_ error: any Error, _ route: ProlificRoute) -> any Error {
        guard let convertible = error as? any MessageConvertible, case .notFound(.book, _) = convertible.message else { return error }
        guard case .book(let number) = route else { return AppRequestRefused(.noBookNumbered(nil)) }
        return AppRequestRefused(.noBookNumbered(number))
    }

    /// The request's body, within the size limit, read as the content type says.
    private func body(_ request: Request) async throws -> ProlificBookBody {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: settings.maxBodyBytes) } catch {
            throw ProlificRequestRefused.tooLarge(max: settings.maxBodyBytes)
        }
        let body = try ProlificBookBody.parse(Array(buffer.readableBytesView), contentType: request.headers[.contentType])
        if let time = body.lastCheckedOut.text, ProlificDates.parse(time) == nil {
            throw AppRequestRefused(.checkoutTimeUnreadable)
        }
        return body
    }
}

/// The routes' work, each one use case (or two, for a checkout PUT) called as the key's librarian.
struct ProlificBooks {
    let library: Library
    let principal: Principal
    let key: String

    /// The book a path's number names; a number no book has (or none at all) is a 404.
    func id(_ number: Int?) async throws -> BookID {
        guard let number else { throw NotFound(.book, "") }
        return try await library.numbers.book(numbered: number)
    }

    /// Every book by number: two reads (the numbers, the catalogue) joined here, not one read per book.
    func list() async throws -> Response {
        let entries = try await library.catalogue.showBook.all(by: principal)
        let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let books = try await library.numbers.numbered().compactMap { number, id in
            byID[id].map { ProlificBook.object($0, number: number) }
        }
        return ProlificAnswer.json(books)
    }

    func show(_ id: BookID) async throws -> Response {
        ProlificAnswer.json(try await object(id))
    }

    func add(_ body: ProlificBookBody) async throws -> Response {
        let entry = try await library.catalogue.addBook.execute(body.draft, copies: 1, by: principal)
        let number = try await library.numbers.number(of: entry.id)
        var headers: HTTPFields = [:]
        headers[.location] = "/\(key)/books/\(number)/"
        return ProlificAnswer.json(ProlificBook.object(entry, number: number), status: .created, headers: headers)
    }

    /// Changes only the fields sent and, for a checkout (`checkoutName`), lends the book at the
    /// desk under that name (a walk-in loan: the server sets the time). All or nothing as far as
    /// two use cases allow: the edit is checked first (recording nothing), then the checkout is
    /// made (refused, nothing changed), then the edit. A retried checkout lends no second copy
    /// (`unlessLentAlready`).
    func change(_ id: BookID, _ body: ProlificBookBody) async throws -> Response {
        let changes = body.changes
        let edits = changes != BookChanges()
        if edits { try await library.catalogue.editBook.check(id, changes: changes, by: principal) }
        // The book's last checkout, read only when a time is sent (to tell a repeat from a new checkout).
        let last = body.lastCheckedOut.text == nil ? nil : try await library.catalogue.showBook.execute(id, by: principal).lastCheckout
        if let name = body.checkoutName(repeating: last.map { ($0.name, $0.at) }) {
            _ = try await library.circulation.checkout.execute(id, borrowerName: name, unlessLentAlready: true, by: principal)
        }
        if edits { _ = try await library.catalogue.editBook.execute(id, changes: changes, by: principal) }
        return ProlificAnswer.json(try await object(id))
    }

    /// Deletes the book; a book deleted already is not found (withdrawing it again changes nothing).
    func delete(_ id: BookID, number: Int?) async throws -> Response {
        guard try await library.catalogue.withdrawBooks.execute([id], by: principal) == 1 else {
            throw NotFound(.book, number.map(String.init) ?? "")
        }
        return Response(status: .noContent)
    }

    /// Withdraws every book that can go; a book kept (copies on loan) makes the answer a 409 naming why.
    func clean() async throws -> Response {
        let report = try await library.catalogue.clearCatalogue.execute(by: principal)
        guard !report.kept.isEmpty else { return ProlificAnswer.json(["deleted": report.withdrawn.count]) }
        let catalogue = ProlificAnswer.catalogue
        let reasons = catalogue.separated(report.kept.map { catalogue.text($0.message) })
        return ProlificAnswer.json(["error": reasons, "deleted": report.withdrawn.count], status: .conflict)
    }

    private func object(_ id: BookID) async throws -> [String: Any] {
        let entry = try await library.catalogue.showBook.execute(id, by: principal)
        return ProlificBook.object(entry, number: try await library.numbers.number(of: id))
    }
}
