import Domain
import Foundation

/// Logs in with email and password; throttled per address; every attempt is an event.
public struct LogIn: Sendable {
    let deps: AccountDependencies

    public func execute(email rawEmail: String, password: String) async throws -> SignedIn {
        guard let email = try? EmailAddress(parsing: rawEmail) else { throw InvalidCredentials() }
        let runner = deps.runner
        let owner = try await runner.load(EmailClaimAggregate.self, .email(email)).state.owner
        var verified = false
        if let owner, case .registered(let account) = try await runner.load(UserAggregate.self, .user(owner)).state {
            verified = await deps.hasher.verify(password, against: account.passwordHash)
        } else {
            _ = try? await deps.hasher.hash(password)  // as slow as a real check: timing tells nothing
        }
        let session = try await runner.retrying { () async throws -> SignedIn.Session? in
            let claim = try await runner.load(EmailClaimAggregate.self, .email(email))
            let now = runner.clock.now()
            if let until = deps.settings.throttle.closedUntil(claim.state, now: now) { throw LoginThrottled(until: until) }
            let attempt = try EmailClaimAggregate.decide(.recordLogin(email, succeeded: verified, at: now), claim.state)
            guard verified, let owner else {
                try await runner.append([claim.decision(attempt)], by: .anonymous)
                return nil
            }
            let user = try await runner.load(UserAggregate.self, .user(owner))
            let (opened, session) = try deps.openSession(in: user.state)
            try await runner.append([claim.decision(attempt), user.decision(opened)], by: .anonymous)
            return session
        }
        guard let session, let owner else { throw InvalidCredentials() }
        return SignedIn(account: try await deps.summary(owner), session: session)
    }
}

/// Logs out the current session, or every session of the user.
public struct LogOut: Sendable {
    let deps: AccountDependencies

    public func execute(everywhere: Bool = false, by principal: Principal) async throws {
        let (user, session) = try principal.requireUser()
        try await deps.runner.retrying {
            let loaded = try await deps.runner.load(UserAggregate.self, .user(user))
            let events = try UserAggregate.decide(everywhere ? .closeAllSessions : .closeSession(session), loaded.state)
            try await deps.runner.append([loaded.decision(events)], by: principal)
        }
    }
}

/// Turns a bearer token into the principal it stands for; refuses unknown, expired and logged-out tokens.
public struct Authenticate: Sendable {
    let deps: AccountDependencies

    public func execute(token: String) async throws -> Principal {
        guard !token.isEmpty, let record = try await deps.accounts.session(digest: deps.tokens.digest(token)),
            record.expiresAt > deps.runner.clock.now(),
            let account = try await deps.accounts.account(record.user)
        else { throw Unauthenticated() }
        return .user(account.id, account.role, record.session)
    }
}

/// The logged-in user's own account.
public struct ShowMe: Sendable {
    let deps: AccountDependencies

    public func execute(by principal: Principal) async throws -> AccountSummary {
        try await deps.summary(try principal.requireUser().0)
    }
}
