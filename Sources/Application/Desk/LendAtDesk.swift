import Domain

/// A librarian lends books to a member found by card number or email: the member's own borrow
/// (`BorrowBooks`: the limit, the overdue block, all or nothing, the waiting lists), recorded
/// with the librarian as the events' actor and the member as the borrower. A refusal names the
/// member, since the librarian reads it.
public struct LendAtDesk: Sendable {
    let cards: Cardholders
    let borrow: BorrowBooks

    /// The member and the new loans.
    public func execute(to who: DeskMember, books: [BookID], by principal: Principal) async throws -> (
        member: AccountSummary, loans: [LoanSummary]
    ) {
        try Authorization.require(.lendAtDesk, by: principal)
        let member = try await cards.find(who, by: principal)
        do {
            return (member, try await borrow.lend(books, to: member.id, by: principal))
        } catch let refused as LoanRefused {
            throw refused.said(of: member.displayName)
        }
    }
}

/// A member's record at the desk: the account, its card and the books it has out.
public struct MemberRecord: Equatable, Sendable {
    public let account: AccountSummary
    /// The member's active loans, soonest due first.
    public let loans: [LoanSummary]
}

/// A librarian looks a member up by account id, email address or card number.
public struct ShowMember: Sendable {
    let cards: Cardholders
    let loans: any LoanRegister

    public func execute(_ idEmailOrCard: String, by principal: Principal) async throws -> MemberRecord {
        try Authorization.require(.showMember, by: principal)
        let account = try await cards.find(idEmailOrCard, by: principal)
        return MemberRecord(account: account, loans: try await loans.loans(LoanFilter(member: account.id)))
    }
}
