import Domain

/// Finds a member by email (as typed: any case, any Unicode spelling), by username, by library
/// card number (as typed or scanned) or by account id. Librarians and the operator only: who has an account
/// is not public.
public struct MemberDirectory: Sendable {
    let deps: AccountDependencies

    /// The account with this email, username, card number or id, or `NotFound` naming what was asked for;
    /// digits meant as a card that are no card (a digit missing, or check digits that fail) are refused
    /// as a mistyped card (a field error on `member`, as the desk's lending says it), not looked up.
    public func find(_ emailCardOrID: String, by principal: Principal) async throws -> UserID {
        try Authorization.require(.findMember, by: principal)
        if let id = UserID(emailCardOrID) {
            guard try await deps.accounts.account(id) != nil else { throw NotFound(.user, emailCardOrID) }
            return id
        }
        if CardNumber.isMeant(emailCardOrID) {
            let card: CardNumber
            do { card = try CardNumber(parsing: emailCardOrID) } catch {
                throw InvalidInput("member", .notACardNumber(emailCardOrID, error))
            }
            return try await holder(of: card)
        }
        if Username.looksLikeUsername(emailCardOrID) {
            guard let name = try? Username(parsing: emailCardOrID), let owner = try await deps.runner.usernameOwner(name),
                try await deps.accounts.account(owner) != nil
            else { throw NotFound(.user, emailCardOrID) }
            return owner
        }
        guard let email = try? EmailAddress(parsing: emailCardOrID),
            let owner = try await deps.runner.emailClaim(email).owner
        else { throw NotFound(.user, emailCardOrID) }
        return owner
    }

    /// The member holding this card. A closed account's card names nobody: it answers as a card
    /// nobody has, so a card number never leads to an erased member's id.
    func holder(of card: CardNumber) async throws -> UserID {
        guard let owner = try await deps.runner.cardholder(card), try await deps.accounts.account(owner) != nil else {
            throw NotFound(.card, card.grouped)
        }
        return owner
    }
}
