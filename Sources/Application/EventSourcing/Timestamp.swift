import Domain
import Foundation

/// How instants are written in the database: ISO 8601, UTC, milliseconds (`2026-09-21T14:13:20.595Z`).
/// Formatting goes through whole milliseconds so that format(parse(format(d))) == format(d): a
/// replay, which only sees the stored text, must write exactly what the live projection wrote.
/// Event payloads write their dates this way too (`EventCodec`), so every store shares it.
public enum Timestamp {
    private static let parser = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    public static func format(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return UTCTime.format(millis: millis, milliseconds: true)
            ?? Date(timeIntervalSince1970: Double(millis) / 1000).formatted(parser)  // beyond year 9999
    }

    public static func parse(_ text: String) throws -> Date {
        guard let millis = UTCTime.parse(text) else { return try parser.parse(text) }
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }
}
