import Foundation

/// How instants are written in the database: ISO 8601, UTC, milliseconds.
enum Timestamp {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    static func format(_ date: Date) -> String { style.format(date) }

    static func parse(_ text: String) throws -> Date {
        try style.parse(text)
    }
}
