import Domain

// Where an address's claim lives. New claims are made under the address's pseudonymous stream
// (`ClaimNames.email`); logs written before hold claims in streams named by the address
// (`StreamName.email`, `email-ada@example.org`), which stay honoured: an address claimed there
// is taken, and its owner logs in through it.

extension CommandRunner {
    /// Who has `email` now, and the stream of its claim (where its logins are recorded): the
    /// pseudonymous stream, or the legacy stream named by the address when that one has the owner.
    public func emailClaim(_ email: EmailAddress) async throws -> (owner: UserID?, stream: StreamName) {
        let claim = try await load(EmailClaimAggregate.self, claimNames.email(email))
        if let owner = claim.state.owner { return (owner, claim.stream) }
        let legacy = try await load(EmailClaimAggregate.self, .email(email))
        if let owner = legacy.state.owner { return (owner, legacy.stream) }
        return (nil, claim.stream)
    }
}

extension Transaction {
    /// Claims `email` for `user` under its pseudonymous stream; `EmailTaken` when another account
    /// has it under either name. The legacy stream is expected unchanged, so a claim made there
    /// meanwhile (by an older program on the same file) makes this attempt run again.
    mutating func claimEmail(_ email: EmailAddress, for user: UserID) async throws {
        let legacy = try await load(EmailClaimAggregate.self, .email(email))
        if legacy.state.owner == user { return }
        guard legacy.state.owner == nil else { throw EmailTaken() }
        expectUnchanged(legacy)
        let claim = try await load(EmailClaimAggregate.self, runner.claimNames.email(email))
        try decide(.claim(email, by: user), on: claim) { _ in EmailTaken() }
    }
}

extension Transaction {
    /// Releases `email`, wherever its claim is, when `user` has it (else nothing): anyone may claim it then.
    mutating func releaseEmail(_ email: EmailAddress, of user: UserID) async throws {
        for stream in [runner.claimNames.email(email), .email(email)] {
            let claim = try await load(EmailClaimAggregate.self, stream)
            guard claim.state.owner == user else { continue }
            try decide(.release(email, by: user), on: claim)
            return
        }
    }
}
