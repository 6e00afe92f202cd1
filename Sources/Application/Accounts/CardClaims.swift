import Domain

extension CommandRunner {
    /// Most card numbers tried for one card before giving up: far more than a library of a
    /// million members on 100 million numbers ever needs.
    static let maxCardProbes = 1_000

    /// Claims a free card number for `user` in `transaction` and returns it: a serial drawn from
    /// the injected `RandomSource`, then the next serials in turn while their claim streams are
    /// taken (named pseudonymously, `ClaimNames.card`, so the log never writes a number in clear). The claim is appended with the account's `user.card-issued`; when another card takes
    /// the number meanwhile, the append conflicts and the whole command draws again.
    func claimCard(for user: UserID, _ transaction: inout Transaction) async throws -> CardNumber {
        let start = Int(random.unit() * Double(CardNumber.serials))
        for probe in 0..<Self.maxCardProbes {
            let card = CardNumber(serial: start + probe)
            let claim = try await transaction.load(CardClaimAggregate.self, claimNames.card(card.digits))
            if claim.state.owner != nil && claim.state.owner != user { continue }
            try transaction.decide(.claim(card, by: user), on: claim)
            return card
        }
        throw TooMuchContention(attempts: Self.maxCardProbes)
    }

    /// The events that issue `user`'s card when its account (in `state`) has none, the number
    /// claimed in `transaction`; none when it has one.
    func issueCard(to user: UserID, in state: UserState, _ transaction: inout Transaction) async throws -> [UserEvent] {
        guard case .registered(let account) = state, account.card == nil else { return [] }
        return try UserAggregate.decide(.issueCard(try await claimCard(for: user, &transaction)), state)
    }

    /// The member whose card has this number, from its claim stream, or nil.
    func cardholder(_ card: CardNumber) async throws -> UserID? {
        try await load(CardClaimAggregate.self, claimNames.card(card.digits)).state.owner
    }
}
