import Application
import Domain
import Foundation
import Wording

// The application's values as the contract's JSON: one mapping, used by the HTTP API and by the
// CLI's `--json`, so both print the same names, types and envelopes.

extension Components.Schemas.User {
    /// An account as the API shows it.
    public init(_ a: AccountSummary) {
        self.init(
            id: a.id.description, email: a.email.value, displayName: a.displayName, country: a.country,
            role: a.role == .librarian ? .librarian : .member, registeredAt: a.registeredAt, username: a.username?.value,
            language: a.language.flatMap { LanguagePayload(rawValue: $0.rawValue) }, cardNumber: a.cardNumber?.digits)
    }
}

extension Components.Schemas.Country {
    /// A country with its English and French names.
    public init(_ c: Country) { self.init(code: c.code, name: c.name, frenchName: c.frenchName) }
}

extension Components.Schemas.Book {
    /// A catalogue entry with its counts; an erased last borrower is named as `catalogue` words it.
    public init(_ entry: CatalogueEntry, in catalogue: any MessageCatalogue = Wording.reader) {
        let d = entry.details
        self.init(
            id: entry.id.description, title: d.title, authors: d.authors, isbn: d.isbn?.isbn13, publisher: d.publisher,
            categories: d.categories, coverUrl: d.coverURL, description: d.description, copies: entry.copies,
            onLoan: entry.onLoan, available: entry.available, holdCount: entry.holdCount, addedAt: entry.addedAt,
            updatedAt: entry.updatedAt,
            lastCheckout: entry.lastCheckout.map { .init(name: catalogue.borrower(of: $0), at: $0.at) })
    }
}

extension Components.Schemas.Loan {
    /// A loan; `overdue` is judged by the caller at the moment it speaks of; an erased borrower is
    /// named as `catalogue` words it.
    public init(_ l: LoanSummary, overdue: Bool, in catalogue: any MessageCatalogue = Wording.reader) {
        self.init(
            id: l.id.description, bookId: l.book.description, bookTitle: l.bookTitle, borrowerId: l.borrower?.description,
            borrowerName: catalogue.borrower(of: l), lentAt: l.lentAt, dueAt: l.dueAt, renewals: l.renewals, returnedAt: l.returnedAt,
            overdue: overdue)
    }
}

extension Components.Schemas.ReturnedLoan {
    /// A loan given back, with the hold its copy was set aside for when the caller may see it.
    public init(_ r: ReturnedLoan, overdue: Bool, in catalogue: any MessageCatalogue = Wording.reader) {
        self.init(
            value1: .init(r.loan, overdue: overdue, in: catalogue),
            value2: .init(setAsideFor: r.setAsideFor.map { .init($0, in: catalogue) }, returnedBefore: r.returnedBefore))
    }
}

extension Components.Schemas.Notice {
    /// A notice about a loan or a hold.
    public init(_ n: NoticeSummary) {
        let kind: KindPayload =
            switch n.kind {
            case .dueSoon: .dueSoon
            case .overdue: .overdue
            case .readyForPickup: .readyForPickup
            case .holdCancelled: .holdCancelled
            case .holdCancelledAtDesk: .holdCancelledAtDesk
            case .holdExpired: .holdExpired
            }
        self.init(
            id: n.id, loanId: n.loan?.description, holdId: n.hold?.description, bookTitle: n.bookTitle, kind: kind, dueAt: n.dueAt,
            issuedAt: n.issuedAt, read: n.read)
    }
}

extension Components.Schemas.Work {
    /// An Open Library work as search shows it.
    public init(_ w: WorkResult) {
        self.init(
            workKey: w.workKey, title: w.title, authors: w.authors, firstPublishYear: w.firstPublishYear, editionCount: w.editionCount,
            isbns: w.isbns, coverId: w.coverID, ratingAverage: w.ratingAverage, ratingCount: w.ratingCount,
            readingLogCount: w.readingLogCount, covers: w.covers.map { .init(small: $0.small, medium: $0.medium, large: $0.large) })
    }
}

/// The contract's JSON as text, for a person (the CLI's `--json`): the API's values and dates
/// (whole-second UTC, slashes unescaped), pretty-printed with sorted keys. The API itself
/// answers in compact JSON with sorted keys: pretty-printing cost a quarter of a list's answer.
public enum ContractJSON {
    /// `value` as the API would send it.
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let dates = WholeSecondDates()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try dates.encode(date))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
