import APIContract
import Application
import Domain
import Foundation
import OpenAPIRuntime

/// Passwords: the generated operations, mapped onto the use cases.
extension LibraryAPI {
    var passwords: PasswordUseCases { library.accounts.passwords }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        try await passwords.change.execute(
            current: body.currentPassword, new: body.newPassword, client: RequestScope.clientIP, by: principal)
        return .noContent(.init())
    }

    func issueResetCode(_ input: Operations.IssueResetCode.Input) async throws -> Operations.IssueResetCode.Output {
        let issued = try await passwords.issueResetCode.execute(input.path.idOrEmail, by: principal)
        return .ok(.init(headers: .init(cacheControl: "no-store"), body: .json(.init(issued))))
    }

    func resetPassword(_ input: Operations.ResetPassword.Input) async throws -> Operations.ResetPassword.Output {
        guard case .json(let body) = input.body else { throw InvalidInput("body", .wrongType(.json)) }
        try await passwords.reset.execute(
            email: body.email, code: body.code, newPassword: body.newPassword, client: RequestScope.clientIP, by: principal)
        return .noContent(.init())
    }
}
