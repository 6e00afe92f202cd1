import Domain

/// Finds a member by email (as typed: any case, any Unicode spelling) or by account id.
/// Librarians and the operator only: who has an account is not public.
public struct MemberDirectory: Sendable {
    let deps: AccountDependencies

    /// The account with this email or id, or `NotFound` naming what was asked for.
    public func find(_ emailOrID: String, by principal: Principal) async throws -> UserID {
        try Authorization.require(.findMember, by: principal)
        if let id = UserID(emailOrID), try await deps.accounts.account(id) != nil { return id }
        guard let email = try? EmailAddress(parsing: emailOrID),
            let owner = try await deps.runner.emailClaim(email).owner
        else { throw NotFound(.user, emailOrID) }
        return owner
    }
}
