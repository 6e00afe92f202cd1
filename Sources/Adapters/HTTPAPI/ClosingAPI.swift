import APIContract
import Application

/// Closing accounts, with erasure: the generated operations, mapped onto `CloseAccount`.
extension LibraryAPI {
    func closeMe(_ input: Operations.CloseMe.Input) async throws -> Operations.CloseMe.Output {
        try await accounts.closeAccount.own(by: principal)
        return .noContent(.init())
    }

    func closeUser(_ input: Operations.CloseUser.Input) async throws -> Operations.CloseUser.Output {
        let member = try await accounts.members.find(input.path.idOrEmail, by: principal)
        try await accounts.closeAccount.member(member, by: principal)
        return .noContent(.init())
    }
}
