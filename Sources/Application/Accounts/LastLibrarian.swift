import Domain

/// The facts the last-librarian rule (`UserRules.lastLibrarian`) needs, read so that it holds
/// under concurrency. The librarians are listed by the accounts read model, then each is loaded
/// from its own stream (the read model may lag a moment) and expected unchanged in the same
/// append: two librarians demoting each other, or both closing, at once each expect the other
/// still a librarian, so one append conflicts, runs again, counts none left and is refused.
public struct LastLibrarian: Sendable {
    let accounts: any Accounts

    /// How many librarians the library has besides `user`, as their streams say now; each of them
    /// is expected unchanged when `transaction` appends. Call it before deciding a command that
    /// may take the librarian role from `user` or close the account.
    func otherLibrarians(besides user: UserID, in transaction: inout Transaction) async throws -> Int {
        var count = 0
        for id in try await accounts.librarians() where id != user {
            let librarian = try await transaction.load(UserAggregate.self, .user(id))
            guard case .registered(let account) = librarian.state, account.role == .librarian else { continue }
            transaction.expectUnchanged(librarian)
            count += 1
        }
        return count
    }
}

extension AccountDependencies {
    /// The last-librarian rule's facts, from this library's accounts.
    var lastLibrarian: LastLibrarian { LastLibrarian(accounts: accounts) }
}

/// An account command was refused; names the member (by display name and email) and why.
public struct AccountRefused: MessageConvertible, Equatable, Sendable {
    public let user: UserID
    public let name: MemberName
    public let rejection: UserRejection
    public init(_ account: Account, _ rejection: UserRejection) {
        user = account.id
        name = MemberName(account)
        self.rejection = rejection
    }

    public var message: Message {
        switch rejection {
        case .notRegistered: .notFound(.user, id: user.description)
        case .alreadyRegistered: .emailTaken
        case .resetCodeRefused: .resetCodeRefused
        case .lastLibrarian: .lastLibrarian(name)
        }
    }
}

/// A member as messages name them: display name and email.
public struct MemberName: Equatable, Sendable {
    public let displayName: String
    public let email: String
    public init(displayName: String, email: String) {
        self.displayName = displayName
        self.email = email
    }
    public init(_ account: Account) { self.init(displayName: account.displayName, email: account.email.value) }
    public init(_ account: AccountSummary) { self.init(displayName: account.displayName, email: account.email.value) }
}
