import Application
import Domain
import Foundation

/// A book as the Prolific apps read it.
enum ProlificBook {
    /// The book's JSON object: authors and categories joined by ", ", the last checkout in
    /// `yyyy-MM-dd HH:mm:ss` (UTC), `url` relative to the base URL; absent values are null.
    static func object(_ entry: CatalogueEntry, number: Int) -> [String: Any] {
        let name = entry.lastCheckout?.name.flatMap { $0.isEmpty ? nil : $0 }
        return [
            "author": entry.details.authors.joined(separator: ", "),
            "categories": entry.details.categories.joined(separator: ", "),
            "id": number,
            "lastCheckedOut": entry.lastCheckout.map { ProlificDates.format($0.at) } ?? NSNull(),
            "lastCheckedOutBy": name ?? NSNull(),
            "publisher": entry.details.publisher ?? NSNull(),
            "title": entry.details.title,
            "url": "/books/\(number)/",
        ]
    }
}

/// The apps' dates: written `yyyy-MM-dd HH:mm:ss` in UTC; read with or without a zone after it
/// (their docs say `yyyy-MM-dd HH:mm:ss zzz`, their code sends none).
enum ProlificDates {
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    static func format(_ date: Date) -> String { formatter("yyyy-MM-dd HH:mm:ss").string(from: date) }

    /// The date, or nil when the text is neither form.
    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        return formatter("yyyy-MM-dd HH:mm:ss").date(from: text) ?? formatter("yyyy-MM-dd HH:mm:ss zzz").date(from: text)
            ?? formatter("yyyy-MM-dd HH:mm:ss Z").date(from: text)
    }
}
