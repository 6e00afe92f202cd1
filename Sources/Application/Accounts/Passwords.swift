import Domain
import Foundation

/// The password use cases, as the CLI and the HTTP API both call them.
public struct PasswordUseCases: Sendable {
    public let change: ChangePassword
    public let issueResetCode: IssueResetCode
    public let reset: ResetPassword

    init(_ deps: AccountDependencies) {
        change = ChangePassword(deps: deps)
        issueResetCode = IssueResetCode(deps: deps, members: MemberDirectory(deps: deps))
        reset = ResetPassword(deps: deps)
    }
}

/// Changes the signed-in member's own password. The current one is checked first: a wrong one
/// counts as a failed login for the account's address from this client, so changing passwords
/// cannot be used to guess past the login throttle. The new one follows the signup's
/// `PasswordPolicy`. Every other session of the member ends; the one asking stays.
public struct ChangePassword: Sendable {
    let deps: AccountDependencies

    /// Changes the password of `principal`'s account, asked from `client` (nil: the command
    /// line); returns how many other sessions were logged out.
    @discardableResult
    public func execute(current: String, new: String, client: String? = nil, by principal: Principal) async throws -> Int {
        let (user, session) = try Authorization.user(.changeOwnPassword, by: principal)
        try deps.admit(client)
        let problems = PasswordPolicy.problems(new, field: "newPassword")
        guard problems.isEmpty else { throw InvalidInput(problems) }
        guard case .registered(let account) = try await deps.runner.load(UserAggregate.self, .user(user)).state else {
            throw Unauthenticated()
        }
        let place = client ?? "local"
        let (failures, check) = try await deps.beginSecretCheck(account.email, from: place)
        defer { check.end() }
        guard await deps.passwordMatches(current, account.passwordHash) else {
            try await deps.recordWrongSecret(account.email, from: place)
            throw WrongPassword()
        }
        if !failures.isEmpty { try await deps.loginFailures.clear(email: account.email, client: place) }
        // Hashed before anything is decided: the plain password goes no further than this line.
        let hash = try await deps.hasher.hash(PasswordPolicy.normalized(new))
        var ended = 0
        try await deps.runner.transact(UserAggregate.self, .user(user), by: principal) { state in
            // The password checked must still be the account's (not changed by another session meanwhile).
            guard case .registered(let now) = state, now.passwordHash == account.passwordHash else { throw WrongPassword() }
            let events = try UserAggregate.decide(.changePassword(hash: hash, keeping: session), state)
            ended = events.count(where: { if case .sessionClosed = $0 { true } else { false } })
            return events
        }
        return ended
    }
}

/// A reset code as issued: shown this once, to be given to the member.
public struct IssuedResetCode: Sendable, Equatable {
    /// The account the code is for.
    public let account: AccountSummary
    /// The code, in its grouped form (`7K3M-Q9TD-X2FB`); the library keeps only its digest.
    public let code: String
    /// When it stops working.
    public let expiresAt: Date
}

/// Issues a one-time reset code for a member, found by id or email (librarians and the operator):
/// answered once and stored only as its digest, usable once within `ResetCode.lifetime`. A new
/// code replaces an older unused one.
public struct IssueResetCode: Sendable {
    let deps: AccountDependencies
    let members: MemberDirectory

    public func execute(_ member: String, by principal: Principal) async throws -> IssuedResetCode {
        try Authorization.require(.issueResetCode, by: principal)
        let user = try await members.find(member, by: principal)
        let (code, digest) = deps.resetCodes.issue()
        let expiresAt = deps.runner.clock.now().addingTimeInterval(ResetCode.lifetime)
        try await deps.runner.transact(UserAggregate.self, .user(user), by: principal) { state in
            guard case .registered = state else { throw NotFound(.user, member) }
            return try UserAggregate.decide(.issueResetCode(digest: digest, expiresAt: expiresAt), state)
        }
        return IssuedResetCode(account: try await deps.summary(user), code: code, expiresAt: expiresAt)
    }
}

/// Sets a new password with a reset code; anyone may ask, with the address, the code and the new
/// password. A wrong, used, replaced or expired code, and an address without an account, all get
/// the same refusal (`ResetCodeRefused`) after the same work (no bcrypt for any of them), and
/// each counts as a failed login for that address from this client: the login throttle and the
/// client's attempts bound the guessing. A code that works is used up, and every session of the
/// account ends; of simultaneous uses of one code exactly one succeeds (the user stream's version).
public struct ResetPassword: Sendable {
    let deps: AccountDependencies

    /// Resets the password of the account of `email`, asked from `client` (nil: the command line).
    public func execute(email rawEmail: String, code typed: String, newPassword: String, client: String? = nil, by principal: Principal)
        async throws
    {
        try Authorization.require(.resetPassword, by: principal)
        try deps.admit(client)
        var problems: [FieldError] = []
        var email: EmailAddress?
        do { email = try EmailAddress(parsing: rawEmail) } catch { problems.append(error) }
        let code = ResetCode.normalized(typed)
        if code == nil { problems.append(FieldError("code", .notAResetCode)) }
        problems += PasswordPolicy.problems(newPassword, field: "newPassword")
        guard let email, let code, problems.isEmpty else { throw InvalidInput(problems) }

        let place = client ?? "local"
        let (failures, check) = try await deps.beginSecretCheck(email, from: place)
        defer { check.end() }
        let digest = deps.resetCodes.digest(code)
        let now = deps.runner.clock.now()
        let owner = try await deps.runner.emailClaim(email).owner
        guard let owner, case .registered(let account) = try await deps.runner.load(UserAggregate.self, .user(owner)).state,
            PasswordRules.resetCodeUsable(digest, account, at: now) == nil
        else {
            try await deps.recordWrongSecret(email, from: place)
            throw ResetCodeRefused()
        }
        let hash = try await deps.hasher.hash(PasswordPolicy.normalized(newPassword))
        do {
            try await deps.runner.transact(UserAggregate.self, .user(owner), by: principal) {
                try UserAggregate.decide(.resetPassword(codeDigest: digest, hash: hash, at: now), $0)
            }
        } catch UserRejection.resetCodeRefused {
            // Another use of the same code got there first: it is used up.
            throw ResetCodeRefused()
        }
        if !failures.isEmpty { try await deps.loginFailures.clear(email: email, client: place) }
    }
}

extension AccountDependencies {
    /// Whether `typed` is the password `hash` was made from.
    func passwordMatches(_ typed: String, _ hash: String) async -> Bool {
        let password = PasswordPolicy.normalized(typed)
        if await hasher.verify(password, against: hash) { return true }
        // Hashes made before passwords were composed hold the password as it was typed then.
        guard !password.utf8.elementsEqual(typed.utf8) else { return false }
        return await hasher.verify(typed, against: hash)
    }

    /// Begins an attempt at a secret of `email`'s account from `place` (a client address, or
    /// "local" for the command line), refused while the login throttle is closed for them (the
    /// checks already under way counted as failures: `SecretChecks`); else the failures it counted
    /// and the check, to be ended once the attempt's failure, if any, is recorded.
    func beginSecretCheck(_ email: EmailAddress, from place: String) async throws -> (failures: [Date], check: SecretChecks.Check) {
        let now = runner.clock.now()
        let since = now.addingTimeInterval(-settings.throttle.window)
        let failures = try await loginFailures.failures(email: email, client: place, since: since)
        let check = try secretChecks.begin(email, from: place, failures: failures, throttle: settings.throttle, now: now)
        return (failures, check)
    }

    /// Counts a wrong current password or reset code as a failed login for `email` from `place`.
    func recordWrongSecret(_ email: EmailAddress, from place: String) async throws {
        let now = runner.clock.now()
        try await loginFailures.record(
            email: email, client: place, at: now, forgetBefore: now.addingTimeInterval(-settings.throttle.window))
    }
}
