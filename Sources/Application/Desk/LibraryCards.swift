import Domain

/// The member's own library card.
public struct ShowCard: Sendable {
    let deps: AccountDependencies

    /// The account and its card number; `NoCardYet` for an account registered before cards that
    /// has not logged in since.
    public func execute(by principal: Principal) async throws -> (account: AccountSummary, card: CardNumber) {
        let account = try await deps.summary(try Authorization.user(.showOwnAccount, by: principal).0)
        guard let card = account.cardNumber else { throw NoCardYet() }
        return (account, card)
    }
}

/// Issues a library card to every account that has none (registered before cards, and not
/// logged in since): one event per account, its number claimed in the same append. Running it
/// again issues nothing.
public struct IssueCards: Sendable {
    let deps: AccountDependencies

    /// How many cards were issued.
    public func execute(by principal: Principal) async throws -> Int {
        try Authorization.require(.issueCards, by: principal)
        let accounts = try await Page.all { try await deps.accounts.list($0) }
        var issued = 0
        for account in accounts where account.cardNumber == nil {
            issued += try await deps.runner.transact(by: principal) { transaction in
                let user = try await transaction.load(UserAggregate.self, .user(account.id))
                let events = try await deps.runner.issueCard(to: account.id, in: user.state, &transaction)
                transaction.record(user, events)
                return events.count
            }
        }
        return issued
    }
}

/// The account has no library card yet.
public struct NoCardYet: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .noCardYet }
}
