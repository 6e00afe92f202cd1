import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// Holds and "renew all": the generated operations, mapped onto the circulation use cases.
extension LibraryAPI {
    var holds: HoldUseCases { library.circulation.holds }

    func placeHold(_ input: Operations.PlaceHold.Input) async throws -> Operations.PlaceHold.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let hold = try await holds.place.execute(try BookID.parse(body.bookId), by: principal)
        return .created(.init(headers: .init(location: Locations.ownHolds), body: .json(.init(hold))))
    }

    func listHolds(_ input: Operations.ListHolds.Input) async throws -> Operations.ListHolds.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        let status = input.query.status.flatMap { HoldSummary.Status(rawValue: $0.rawValue) }
        return .ok(.init(body: .json(.init(try await holds.list.active(status, page: page, by: principal)))))
    }

    func cancelHold(_ input: Operations.CancelHold.Input) async throws -> Operations.CancelHold.Output {
        .ok(.init(body: .json(.init(try await holds.cancel.execute(try HoldID.parse(input.path.id), by: principal)))))
    }

    func myHolds(_ input: Operations.MyHolds.Input) async throws -> Operations.MyHolds.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        return .ok(.init(body: .json(.init(try await holds.list.mine(page: page, by: principal)))))
    }

    func bookHolds(_ input: Operations.BookHolds.Input) async throws -> Operations.BookHolds.Output {
        let page = try PageRequest(limit: input.query.limit, offset: input.query.offset)
        let line = try await holds.list.queue(of: try BookID.parse(input.path.id), page: page, by: principal)
        return .ok(.init(body: .json(.init(line))))
    }

    func renewAllLoans(_ input: Operations.RenewAllLoans.Input) async throws -> Operations.RenewAllLoans.Output {
        let report = try await library.circulation.renewAll.execute(by: principal)
        let renewals = report.map {
            Components.Schemas.Renewal($0, overdue: circulation.list.isOverdue($0.loan), in: TransportTexts.catalogue)
        }
        return .ok(.init(body: .json(.init(renewals: renewals))))
    }
}
