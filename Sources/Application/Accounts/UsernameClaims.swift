import Domain

// Login names are claimed like email addresses, under a pseudonymous stream
// (`ClaimNames.username`): two accounts can never both take one, and the log never spells it.

extension CommandRunner {
    /// Who has `name` now, if anyone.
    public func usernameOwner(_ name: Username) async throws -> UserID? {
        try await load(UsernameClaimAggregate.self, claimNames.username(name)).state.owner
    }
}

extension Transaction {
    /// Claims `name` for `user`; `UsernameTaken` when another account has it.
    mutating func claimUsername(_ name: Username, for user: UserID) async throws {
        let claim = try await load(UsernameClaimAggregate.self, runner.claimNames.username(name))
        try decide(.claim(name, by: user), on: claim) { _ in UsernameTaken() }
    }

    /// Releases `name` when `user` has it (else nothing): anyone may claim it then.
    mutating func releaseUsername(_ name: Username, of user: UserID) async throws {
        let claim = try await load(UsernameClaimAggregate.self, runner.claimNames.username(name))
        try decide(.release(name, by: user), on: claim)
    }

    /// Carries out `request` on `account`: the events of the change, the new name claimed and the old one released.
    mutating func changeUsername(_ request: UsernameRequest, of account: Account) async throws -> [UserEvent] {
        let events = try UserAggregate.decide(.changeUsername(request.name), .registered(account))
        guard !events.isEmpty else { return [] }
        if let name = request.name { try await claimUsername(name, for: account.id) }
        if let old = account.username { try await releaseUsername(old, of: account.id) }
        return events
    }
}

/// Whether a login name may be taken, as an old client's signup asks before anything else.
public enum UsernameAvailability: Equatable, Sendable {
    case free
    case taken
    /// Not a username, and why (the adapter words it).
    case invalid(FieldError)
}

/// Tells whether a login name is free (the BitBooks protocol's `ADD_USER` answers with it).
public struct Usernames: Sendable {
    let deps: AccountDependencies

    /// Whether `raw` is a username nobody has. Asking from `client` (an address) counts as one of
    /// its signup and login attempts (`TooManyAttempts` past them): nobody may test usernames by
    /// the thousand.
    public func availability(_ raw: String, client: String?) async throws -> UsernameAvailability {
        try deps.admit(client)
        let name: Username
        do { name = try Username(parsing: raw) } catch { return .invalid(error) }
        return try await deps.runner.usernameOwner(name) == nil ? .free : .taken
    }
}
