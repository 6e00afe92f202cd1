import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// The audit of the log.
extension LibraryAPI {
    func verifyLog(_ input: Operations.VerifyLog.Input) async throws -> Operations.VerifyLog.Output {
        let checks = try await library.verifyLog.execute(by: principal)
        return .ok(.init(body: .json(.init(checks))))
    }
}

extension LibraryAPI {
    func aggregateHistory(_ input: Operations.AggregateHistory.Input) async throws -> Operations.AggregateHistory.Output {
        let q = input.query
        let given: [AggregateHistory.Subject] = [
            q.book.map { .book($0) }, q.member.map { .member(email: $0) }, q.loan.map { .loan($0) },
            q.stream.map { .stream($0) },
        ].compactMap { $0 }
        guard given.count == 1, let subject = given.first else {
            throw InvalidInput("book", .exactlyOneOf(["book", "member", "loan", "stream"]))
        }
        let page = try PageRequest(limit: q.limit, offset: q.offset)
        let history = try await library.history.execute(subject, page: page, by: principal)
        return .ok(.init(body: .json(try .init(history, in: TransportTexts.catalogue))))
    }
}

extension LibraryAPI {
    func asOf(_ input: Operations.AsOf.Input) async throws -> Operations.AsOf.Output {
        let q = input.query
        let view: TimeTravel.View
        switch q.view {
        case .books: view = .books
        case .loans: view = .loans
        case .member:
            guard let email = q.member else { throw InvalidInput("member", .requiredWith(field: "view", value: "member")) }
            view = .member(email: email)
        case .holds:
            guard let book = q.book else { throw InvalidInput("book", .requiredWith(field: "view", value: "holds")) }
            view = .holds(book: try BookID.parse(book))
        }
        let answer = try await library.timeTravel.execute(at: q.at, view: view, by: principal)
        return .ok(.init(body: .json(.init(answer, at: q.at))))
    }
}
