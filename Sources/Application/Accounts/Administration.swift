import Domain

/// Promotes a member to librarian or demotes a librarian. Librarians and the operator only; the
/// library's last librarian stays one (`UserRules.lastLibrarian`, refused as `AccountRefused`).
public struct ChangeRole: Sendable {
    let deps: AccountDependencies

    public func execute(_ user: UserID, to role: Role, by principal: Principal) async throws -> AccountSummary {
        try Authorization.require(.changeRole, by: principal)
        try await deps.runner.transact(by: principal) { transaction in
            let loaded = try await transaction.load(UserAggregate.self, .user(user))
            guard case .registered(let account) = loaded.state else { throw NotFound(.user, user.description) }
            let leaving = account.role == .librarian && role != .librarian
            let others = leaving ? try await deps.lastLibrarian.otherLibrarians(besides: user, in: &transaction) : 0
            try transaction.decide(.changeRole(role, otherLibrarians: others), on: loaded) { AccountRefused(account, $0) }
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
