import Domain
import Foundation

/// Who borrowed a book is personal: librarians (and the operator) see the last borrower's name,
/// a member sees it only when the last borrower was themselves, and everyone else sees at most
/// that the book was checked out, and when. The last checkout is known by its book and time: when
/// two loans of the book were lent at that same instant, a member cannot be told which one is
/// theirs, and sees no name.
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
            var shown = entries
            for (index, entry) in entries.enumerated() {
                guard let checkout = entry.lastCheckout else { continue }
                let theirs = own.contains(OwnCheckout(book: entry.id, at: checkout.at))
                if theirs, try await isOnlyCheckout(of: entry.id, at: checkout.at) { continue }
                shown[index] = entry.withoutBorrower()
            }
            return shown
        }
    }

    /// Whether exactly one loan of `book` was lent at `instant`.
    private func isOnlyCheckout(of book: BookID, at instant: Date) async throws -> Bool {
        try await loans.loans(LoanFilter(book: book, includeReturned: true)).count { $0.lentAt == instant } == 1
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
