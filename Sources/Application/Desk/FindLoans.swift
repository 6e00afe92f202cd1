import Domain

/// The loans list as the desk asks for it (librarians): the active loans of a member (by account
/// id, email, card number or username), of a walk-in borrower (by name, however it was typed), of a book,
/// or all. A member named by something that is none of those is refused saying so, with where
/// walk-in names go, rather than "not found".
public struct FindLoans: Sendable {
    let cards: Cardholders
    let list: ListLoans

    /// One page of the active loans matching every filter given.
    public func execute(
        member: String? = nil, walkIn: String? = nil, book: BookID? = nil, overdueOnly: Bool = false, page: PageRequest = .first,
        by principal: Principal
    ) async throws -> Page<LoanSummary> {
        try Authorization.require(.listLoans, by: principal)
        // A walk-in name with nothing to see in it names nobody, as an empty member does (found by
        // an outside walk: `borrower=` answered every loan of nobody, `member=` a 400).
        if let walkIn, FreeText.looksEmpty(walkIn) { throw InvalidInput("borrower", .required) }
        var memberID: UserID?
        if let member {
            guard Self.namesAMember(member) else { throw InvalidInput("member", .notAMemberReference(member)) }
            memberID = try await cards.find(member, by: principal).id
        }
        return try await list.active(member: memberID, book: book, walkIn: walkIn, overdueOnly: overdueOnly, page: page, by: principal)
    }

    /// Whether `text` can name a member: an account id, something with an `@`, a card number, or
    /// a username (a walk-in borrower's name with a space in it is none of them).
    static func namesAMember(_ text: String) -> Bool {
        UserID(text) != nil || text.contains("@") || CardNumber.isMeant(text) || (try? Username(parsing: text)) != nil
    }
}
