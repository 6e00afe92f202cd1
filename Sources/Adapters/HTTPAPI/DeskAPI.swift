import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// The front desk: lending to members by card or email, members' records, the member's own card.
extension LibraryAPI {
    var desk: DeskUseCases { library.desk }

    func lendAtDesk(_ input: Operations.LendAtDesk.Input) async throws -> Operations.LendAtDesk.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        let who = try DeskMember(card: body.card, email: body.email)
        let books = try body.bookIds.map { id throws(NotFound) in try BookID.parse(id) }
        let (member, loans) = try await desk.lend.execute(to: who, books: books, by: principal)
        let answer = Components.Schemas.DeskLoans(member: member, loans: loans, overdue: circulation.list.isOverdue)
        return .created(.init(headers: .init(location: Locations.member(member.id)), body: .json(answer)))
    }

    func showUser(_ input: Operations.ShowUser.Input) async throws -> Operations.ShowUser.Output {
        let record = try await desk.showMember.execute(input.path.idOrEmail, by: principal)
        return .ok(.init(body: .json(.init(record, overdue: circulation.list.isOverdue))))
    }

    func myCard(_ input: Operations.MyCard.Input) async throws -> Operations.MyCard.Output {
        let (_, card) = try await desk.myCard.execute(by: principal)
        return .ok(.init(body: .imageSvgXml(HTTPBody(CardImage.svg(card)))))
    }
}
