import Domain
import Foundation

/// Closes an account and erases its member's personal data: in one atomic append, the address is
/// released (free to register again) and `user.closed` is recorded, with which the store deletes
/// the member's key (crypto-shredding). The member's patron stream is expected unchanged, so a
/// borrow or hold racing the closing makes one of them run again: no loan is left to a closed
/// account. Their sessions end (the read model drops them with the event), their failed logins
/// are forgotten and no state of theirs stays cached.
public struct CloseAccount: Sendable {
    let deps: AccountDependencies

    /// The caller closes their own account.
    public func own(by principal: Principal) async throws {
        let (user, _) = try Authorization.user(.closeOwnAccount, by: principal)
        try await close(user, by: principal)
    }

    /// A librarian (or the operator) closes a member's account.
    public func member(_ user: UserID, by principal: Principal) async throws {
        try Authorization.require(.closeAccount, by: principal)
        try await close(user, by: principal)
    }

    /// The account a librarian is about to close, to name it when asking to confirm.
    public func account(_ user: UserID, by principal: Principal) async throws -> AccountSummary {
        try Authorization.require(.closeAccount, by: principal)
        return try await deps.summary(user)
    }

    private func close(_ user: UserID, by principal: Principal) async throws {
        let runner = deps.runner
        let email = try await runner.transact(by: principal) { transaction -> EmailAddress in
            let loaded = try await transaction.load(UserAggregate.self, .user(user))
            guard case .registered(let account) = loaded.state else { throw NotFound(.user, user.description) }
            let patron = try await transaction.load(PatronAggregate.self, .patron(user))
            transaction.expectUnchanged(patron)
            let others = account.role == .librarian ? try await deps.lastLibrarian.otherLibrarians(besides: user, in: &transaction) : 0
            let closed: [UserEvent]
            do throws(ClosingRejection) {
                closed = try UserAggregate.decideClose(ClosingFacts(patron: patron.state, otherLibrarians: others), loaded.state)
            } catch {
                throw try await ClosingRefused(account, error, runner)
            }
            // Released first: the release is sealed with the key that `user.closed` then deletes.
            try await transaction.releaseEmail(account.email, of: user)
            if let name = account.username { try await transaction.releaseUsername(name, of: user) }
            transaction.record(loaded, closed)
            return account.email
        }
        try await deps.loginFailures.forget(email: email)
        for stream in [StreamName.user(user), .patron(user), .email(email), runner.claimNames.email(email)] {
            runner.cache.forget(stream)
        }
    }
}

/// An account cannot be closed; names the member and what keeps it open (books by title).
public struct ClosingRefused: MessageConvertible, Equatable, Sendable {
    public let name: MemberName
    public let rejection: ClosingRejection
    /// The titles of the books the rejection is about, by loan or hold, as read from their streams.
    public let loans: [OverdueBook]
    public let holds: [String?]

    init(_ account: Account, _ rejection: ClosingRejection, _ runner: CommandRunner) async throws {
        name = MemberName(account)
        self.rejection = rejection
        switch rejection {
        case .activeLoans(let active):
            var loans: [OverdueBook] = []
            for loan in active {
                let state = try await runner.load(LoanAggregate.self, .loan(loan.loan)).state
                let title: String? = if case .lent(let record) = state { record.opened.bookTitle } else { nil }
                loans.append(OverdueBook(title: title, dueAt: loan.dueAt))
            }
            self.loans = loans
            holds = []
        case .activeHolds(let active):
            var holds: [String?] = []
            for hold in active {
                let line = try await runner.load(HoldQueueAggregate.self, .holds(hold.book)).state
                holds.append(line.bookTitle.isEmpty ? nil : line.bookTitle)
            }
            self.holds = holds
            loans = []
        case .lastLibrarian:
            loans = []
            holds = []
        }
    }

    public var message: Message {
        switch rejection {
        case .activeLoans: .closingWithLoans(name, loans)
        case .activeHolds: .closingWithHolds(name, titles: holds)
        case .lastLibrarian: .lastLibrarian(name)
        }
    }
}
