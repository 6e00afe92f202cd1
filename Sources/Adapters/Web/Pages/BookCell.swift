import Application
import Domain
import Foundation
import Wording

/// A catalogue book as a list shows it.
struct BookCell: Hashable, Sendable {
    let id: String
    let title: String
    let authors: String
    let cover: String?
    let available: Int
    let copies: Int
    let waiting: Int
    /// "2 of 3 available".
    let availability: String
    /// "1 waiting".
    let waitingText: String
    /// The cover's description, or the missing cover's.
    let coverAlt: String
    let isAvailable: Bool
    let hasWaiting: Bool
    /// "Last checked out by NAME on DATE", or "Last checked out on DATE" when the name is not the reader's to see.
    let lastCheckout: String?

    init(_ entry: CatalogueEntry) {
        id = entry.id.description
        title = entry.details.title
        authors = entry.details.authors.joined(separator: ", ")
        cover = Covers.safe(entry.details.coverURL)
        available = max(0, entry.available)
        copies = entry.copies
        // A member a copy is kept for waits no more (found by an outside walk: "1 waiting" when
        // nobody was, and the next hold placed was first in line).
        waiting = entry.waiting
        isAvailable = entry.available > 0
        hasWaiting = entry.waiting > 0
        availability = t("web.bookcell.available", count: available, number(available), number(entry.copies))
        waitingText = t("web.bookcell.waiting", count: entry.waiting, number(entry.waiting))
        coverAlt = Covers.alt(title, present: cover != nil)
        lastCheckout = entry.lastCheckout.map(Self.checkout)
    }

    static func checkout(_ checkout: CatalogueEntry.Checkout) -> String {
        said(
            checkout, day: { t("web.bookcell.lastCheckout", $0) }, erased: { t("web.bookcell.lastCheckoutErased", $0) },
            by: { t("web.bookcell.lastCheckoutBy", $0, $1) })
    }

    /// The last checkout under the book page's own label ("Last checkout"): its day, and by whom,
    /// without saying "last checked out" again (found by an outside reader).
    static func checkoutUnderLabel(_ checkout: CatalogueEntry.Checkout) -> String {
        said(
            checkout, day: { t("web.book.lastCheckoutOn", $0) }, erased: { t("web.book.lastCheckoutErased", $0) },
            by: { t("web.book.lastCheckoutBy", $0, $1) })
    }

    /// `checkout` in one of three sentences: by nobody named, by an erased member, by a name (and the day).
    private static func said(
        _ checkout: CatalogueEntry.Checkout, day: (String) -> String, erased: (String) -> String, by: (String, String) -> String
    ) -> String {
        let when = Dates.day(checkout.at)
        switch checkout.name {
        case nil: return day(when)
        case CatalogueEntry.Checkout.erasedName?: return erased(when)
        case let name?: return by(name, when)
        }
    }
}

/// Cover addresses a page may show: web addresses only (never `javascript:` or `data:`).
enum Covers {
    static func safe(_ url: String?) -> String? {
        guard let url, let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "https" || scheme == "http" else { return nil }
        return url
    }

    /// A cover's `alt` ("Cover of Dune"), or the label of the empty box shown when there is none.
    static func alt(_ title: String, present: Bool) -> String {
        present ? t("web.cover.of", title) : t("web.cover.none", title)
    }
}

/// Dates and times as the reader's language writes them, in UTC (the library's time).
enum Dates {
    /// "November 22, 2026", "22 novembre 2026".
    static func day(_ date: Date) -> String { Formats(Reader.language).day(date) }
    /// "November 22, 2026 at 14:05 UTC", "22 novembre 2026 à 14:05 UTC".
    static func moment(_ date: Date) -> String { Formats(Reader.language).moment(date) }
    /// The date as a `datetime` attribute wants it.
    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}

/// Counts as the reader's language writes them ("1,234", "1 234").
func number(_ value: Int) -> String { Formats(Reader.language).number(value) }
