import Foundation

// Whom a loan or a hold names, as a person reads it. The read models keep an empty name once the
// member closed their account (the name was erased); every view words that the same way.

extension LoanSummary {
    /// Whether the borrower was a member whose account was closed and whose name was erased.
    public var borrowerErased: Bool { borrower != nil && borrowerName.isEmpty }
}

extension HoldSummary {
    /// Whether the member closed their account and their name was erased.
    public var memberErased: Bool { memberName.isEmpty }
}

extension MessageCatalogue {
    /// A book's last borrower: their name, "erased member", or nil when hidden from the reader.
    public func borrower(of checkout: CatalogueEntry.Checkout) -> String? {
        checkout.name.map { $0 == CatalogueEntry.Checkout.erasedName ? text(.actor(.erasedMember)) : $0 }
    }

    /// A loan's borrower: the walk-in's or the member's name, or "erased member".
    public func borrower(of loan: LoanSummary) -> String {
        loan.borrowerErased ? text(.actor(.erasedMember)) : loan.borrowerName
    }

    /// A hold's member: their name, or "erased member".
    public func member(of hold: HoldSummary) -> String {
        hold.memberErased ? text(.actor(.erasedMember)) : hold.memberName
    }
}
