import Domain

/// Promotes a member to librarian or demotes a librarian. Librarians and the operator only.
public struct ChangeRole: Sendable {
    let deps: AccountDependencies

    public func execute(_ user: UserID, to role: Role, by principal: Principal) async throws -> AccountSummary {
        try Authorization.require(.changeRole, by: principal)
        try await deps.runner.transact(by: principal) { transaction in
            let account = try await transaction.load(UserAggregate.self, .user(user))
            guard case .registered = account.state else { throw NotFound(.user, user.description) }
            try transaction.decide(.changeRole(role), on: account)
        }
        return try await deps.summary(user)
    }
}

/// Lists every account. Librarians and the operator only.
public struct ListUsers: Sendable {
    let deps: AccountDependencies

    public func execute(page: PageRequest = .first, by principal: Principal) async throws -> Page<AccountSummary> {
        try Authorization.require(.listUsers, by: principal)
        return try await deps.accounts.list(page)
    }
}
