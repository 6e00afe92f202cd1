import Domain
import Foundation

/// Logs in with an email address or a username, and a password. Limited per client address;
/// throttled per address and client (a username counts as its account's address, so both
/// spellings share one throttle), so a stranger's failures never lock the owner out; a throttled
/// attempt costs no bcrypt. An account's logins are events; failures for addresses without one are not.
public struct LogIn: Sendable {
    let deps: AccountDependencies

    /// Logs in from `client` (the caller's address; nil for the command line); `login` is an email
    /// address or a username (it has no `@`).
    public func execute(login: String, password typed: String, client: String? = nil) async throws -> SignedIn {
        try deps.admit(client)
        if let tooLong = PasswordPolicy.tooLong(typed) { throw InvalidInput([tooLong]) }
        guard let email = try await address(of: login) else {
            _ = try? await deps.hasher.hash(PasswordPolicy.normalized(typed))  // as slow as a wrong password
            throw InvalidCredentials()
        }
        let runner = deps.runner
        let now = runner.clock.now()
        let place = client ?? "local"
        let (failures, check) = try await deps.beginSecretCheck(email, from: place)
        defer { check.end() }

        let (owner, claim) = try await runner.emailClaim(email)
        let verified = try await verify(typed, owner: owner)
        guard let verified, let owner else {
            try await deps.recordWrongSecret(email, from: place)
            if owner != nil { try await record(email, in: claim, succeeded: false, at: now, opening: nil) }
            throw InvalidCredentials()
        }
        if !failures.isEmpty { try await deps.loginFailures.clear(email: email, client: place) }
        guard let session = try await record(email, in: claim, succeeded: true, at: now, opening: owner, verified: verified) else {
            throw InvalidCredentials()
        }
        return SignedIn(account: try await deps.summary(owner), session: session)
    }

    /// The address to log in to: `login` itself, or the address of the account that has it as its username.
    private func address(of login: String) async throws -> EmailAddress? {
        guard Username.looksLikeUsername(login) else { return try? EmailAddress(parsing: login) }
        guard let name = try? Username(parsing: login), let owner = try await deps.runner.usernameOwner(name) else { return nil }
        return try await deps.accounts.account(owner)?.email
    }

    /// The owner's password hash when `typed` is their password, else nil; as slow when there is no
    /// owner, so timing tells nothing.
    private func verify(_ typed: String, owner: UserID?) async throws -> String? {
        let password = PasswordPolicy.normalized(typed)
        guard let owner, case .registered(let account) = try await deps.runner.load(UserAggregate.self, .user(owner)).state else {
            _ = try? await deps.hasher.hash(password)
            return nil
        }
        return await deps.passwordMatches(typed, account.passwordHash) ? account.passwordHash : nil
    }

    /// Appends the attempt to the address's trail (its claim stream) and, when `opening` a session
    /// for that user, the session in the same append, provided the password `verified` is still
    /// theirs: one changed or reset while this login was checked ended every session, and must end
    /// this one too (found by an outside test: a login racing a change kept a session).
    private func record(
        _ email: EmailAddress, in stream: StreamName, succeeded: Bool, at now: Date, opening owner: UserID?, verified: String? = nil
    ) async throws -> SignedIn.Session? {
        try await deps.runner.transact(by: .anonymous) { transaction -> SignedIn.Session? in
            let claim = try await transaction.load(EmailClaimAggregate.self, stream)
            try transaction.decide(.recordLogin(email, succeeded: succeeded, at: now), on: claim)
            guard let owner else { return nil }
            let user = try await transaction.load(UserAggregate.self, .user(owner))
            guard case .registered(let account) = user.state, account.passwordHash == verified else { throw InvalidCredentials() }
            // A member registered before library cards gets one at the first login since.
            let issued = try await deps.runner.issueCard(to: owner, in: user.state, &transaction)
            let (opened, session) = try deps.openSession(in: UserAggregate.fold(issued, from: user.state))
            transaction.record(user, issued + opened)
            return session
        }
    }
}

/// Logs out the current session, or every session of the user.
public struct LogOut: Sendable {
    let deps: AccountDependencies

    public func execute(everywhere: Bool = false, by principal: Principal) async throws {
        let (user, session) = try Authorization.user(.logOut, by: principal)
        try await deps.runner.transact(UserAggregate.self, .user(user), by: principal) {
            try UserAggregate.decide(everywhere ? .closeAllSessions : .closeSession(session), $0)
        }
    }
}

/// Turns a bearer token into the principal it stands for; refuses unknown, expired and logged-out tokens.
public struct Authenticate: Sendable {
    let deps: AccountDependencies

    public func execute(token: String) async throws -> Principal {
        guard !token.isEmpty, let (record, account) = try await deps.accounts.signedIn(digest: deps.tokens.digest(token)),
            record.expiresAt > deps.runner.clock.now(), let account
        else { throw Unauthenticated() }
        return Principal.user(account.id, account.role, record.session).traced()
    }
}

/// The logged-in user's own account.
public struct ShowMe: Sendable {
    let deps: AccountDependencies

    public func execute(by principal: Principal) async throws -> AccountSummary {
        try await deps.summary(try Authorization.user(.showOwnAccount, by: principal).0)
    }
}
