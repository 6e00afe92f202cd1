import Domain
import Foundation

/// Who borrowed a book is personal: librarians (and the operator) see the last borrower's name,
/// a member sees it only when the last borrower was themselves, and everyone else sees at most
/// that the book was checked out, and when.
struct CheckoutPrivacy: Sendable {
    let loans: any LoanRegister

    /// `entries` as `principal` may see them.
    func redact(_ entries: [CatalogueEntry], for principal: Principal) async throws -> [CatalogueEntry] {
        switch principal {
        case .cliOperator, .system, .user(_, .librarian, _): return entries
        case .anonymous:
            // Most pages name nobody: they are answered as they are, not copied entry by entry.
            guard entries.contains(where: { $0.lastCheckout?.name != nil }) else { return entries }
            return entries.map { $0.withoutBorrower() }
        case .user(let member, .member, _):
            guard entries.contains(where: { $0.lastCheckout != nil }) else { return entries }
            let own = Set(
                try await loans.loans(LoanFilter(member: member, includeReturned: true)).map { OwnCheckout(book: $0.book, at: $0.lentAt) })
            return entries.map { entry in
                guard let checkout = entry.lastCheckout, !own.contains(OwnCheckout(book: entry.id, at: checkout.at)) else { return entry }
                return entry.withoutBorrower()
            }
        }
    }

    private struct OwnCheckout: Hashable {
        let book: BookID
        let at: Date
    }
}

extension CatalogueEntry {
    /// The entry with the last checkout's time but not its borrower.
    func withoutBorrower() -> CatalogueEntry {
        var entry = self
        entry.lastCheckout = lastCheckout.map { Checkout(name: nil, at: $0.at) }
        return entry
    }
}
