import Application
import Domain
import Foundation
import Wording

// Holds and renewals as the contract's JSON, for the HTTP API and the CLI's `--json` alike.

extension Components.Schemas.Hold {
    /// A hold with its place in line (waiting) or pickup date (ready); an erased member is named as
    /// `catalogue` words it.
    public init(_ h: HoldSummary, in catalogue: any MessageCatalogue = Wording.reader) {
        self.init(
            id: h.id.description, bookId: h.book.description, bookTitle: h.bookTitle, memberId: h.member.description,
            memberName: catalogue.member(of: h), placedAt: h.placedAt, status: StatusPayload(rawValue: h.status.rawValue) ?? .waiting,
            position: h.position, pickupUntil: h.pickupUntil, copies: h.copies)
    }
}

extension Components.Schemas.HoldPage {
    /// A page of holds.
    public init(_ page: Page<HoldSummary>) {
        self.init(value1: .init(page), value2: .init(items: page.items.map { Components.Schemas.Hold($0) }))
    }
}

extension Components.Schemas.Renewal {
    /// One loan of "renew all": renewed, or why not in `catalogue`'s words; `overdue` judges the loan now.
    public init(_ r: LoanRenewal, overdue: Bool, in catalogue: any MessageCatalogue) {
        self.init(
            loan: .init(r.loan, overdue: overdue), renewed: r.refusal == nil, reason: r.refusal.map { catalogue.text($0.message) })
    }
}
