import Application
import Domain
import Foundation

/// A catalogue book as a list shows it.
struct BookCell: Sendable {
    let id: String
    let title: String
    let authors: String
    let cover: String?
    let available: Int
    let copies: Int
    let waiting: Int
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
        waiting = entry.holdCount
        isAvailable = entry.available > 0
        hasWaiting = entry.holdCount > 0
        lastCheckout = entry.lastCheckout.map(Self.checkout)
    }

    static func checkout(_ checkout: CatalogueEntry.Checkout) -> String {
        let day = Dates.day(checkout.at)
        switch checkout.name {
        case nil: return "Last checked out on \(day)"
        case CatalogueEntry.Checkout.erasedName?: return "Last checked out by an erased member on \(day)"
        case let name?: return "Last checked out by \(name) on \(day)"
        }
    }
}

/// Cover addresses a page may show: web addresses only (never `javascript:` or `data:`).
enum Covers {
    static func safe(_ url: String?) -> String? {
        guard let url, let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "https" || scheme == "http" else { return nil }
        return url
    }
}

/// Dates and times as a reader of English reads them, in UTC (the library's time).
enum Dates {
    nonisolated(unsafe) private static let dayFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMMM d, yyyy"
        return formatter
    }()
    nonisolated(unsafe) private static let momentFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMMM d, yyyy 'at' HH:mm 'UTC'"
        return formatter
    }()
    private static let lock = NSLock()

    /// "November 22, 2026".
    static func day(_ date: Date) -> String { lock.withLock { dayFormat.string(from: date) } }
    /// "November 22, 2026 at 14:05 UTC".
    static func moment(_ date: Date) -> String { lock.withLock { momentFormat.string(from: date) } }
    /// The date as a `datetime` attribute wants it.
    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
