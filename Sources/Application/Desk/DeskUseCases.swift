import Domain

/// The front desk: lending to members found by card or email, a member's record, library cards.
/// Built from the account and circulation use cases, so the desk runs the very same rules.
public struct DeskUseCases: Sendable {
    public let lend: LendAtDesk
    public let showMember: ShowMember
    public let myCard: ShowCard
    public let issueCards: IssueCards
    public let loans: FindLoans

    init(accounts: AccountUseCases, circulation: CirculationUseCases) {
        let cards = Cardholders(members: accounts.members)
        lend = LendAtDesk(cards: cards, borrow: circulation.borrow)
        showMember = ShowMember(cards: cards, loans: circulation.borrow.deps.loans)
        myCard = ShowCard(deps: accounts.members.deps)
        issueCards = IssueCards(deps: accounts.members.deps)
        loans = FindLoans(cards: cards, list: circulation.list)
    }
}

/// Who the desk means: a library card's number or an email address, as typed or scanned.
public enum DeskMember: Equatable, Sendable {
    case card(String)
    case email(String)
    /// The login name the member chose.
    case username(String)
    /// The account's id (the desk's own forms name a member so: a copy set aside for them).
    case account(UserID)

    /// What a librarian typed in the desk's one member field: an address has an `@`, a card number
    /// is digits (spaces and hyphens between), an account id is a UUID, anything else is a username.
    public init(typed text: String) {
        if let id = UserID(text.trimmingCharacters(in: .whitespaces)) {
            self = .account(id)
        } else {
            self = text.contains("@") ? .email(text) : CardNumber.isMeant(text) ? .card(text) : .username(text)
        }
    }
}

extension DeskMember {
    /// The member a request names by card number or by email: exactly one of the two.
    public init(card: String?, email: String?) throws(InvalidInput) {
        switch (card, email) {
        case (let card?, nil): self = .card(card)
        case (nil, let email?): self = .email(email)
        default: throw InvalidInput("card", .exactlyOneOf(["card", "email"]))
        }
    }
}

/// Finds members by card number (through the card's claim stream), email or account id.
struct Cardholders: Sendable {
    let members: MemberDirectory
    var deps: AccountDependencies { members.deps }

    /// The member `who` names; a mistyped card number is refused (a field error on `card`)
    /// before anything is looked up.
    func find(_ who: DeskMember, by principal: Principal) async throws -> AccountSummary {
        switch who {
        case .card(let text):
            let card: CardNumber
            do { card = try CardNumber(parsing: text) } catch { throw InvalidInput("card", .notACardNumber(text, error)) }
            try Authorization.require(.findMember, by: principal)
            return try await deps.summary(try await members.holder(of: card))
        case .email(let text):
            do { _ = try EmailAddress(parsing: text) } catch { throw InvalidInput([error]) }
            return try await deps.summary(try await members.find(text, by: principal))
        case .username(let text):
            guard (try? Username(parsing: text)) != nil else { throw InvalidInput("member", .notAMemberReference(text)) }
            return try await deps.summary(try await members.find(text, by: principal))
        case .account(let id):
            try Authorization.require(.findMember, by: principal)
            return try await deps.summary(id)
        }
    }

    /// The member an account id, an email address or a card number names.
    func find(_ idEmailOrCard: String, by principal: Principal) async throws -> AccountSummary {
        try await deps.summary(try await members.find(idEmailOrCard, by: principal))
    }
}
