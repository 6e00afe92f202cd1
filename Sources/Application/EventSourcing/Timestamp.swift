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

    /// `date` written to be compared, as text, with stored times (`recorded_at <= ?`): within the
    /// years four digits write, so a moment past 9999 comes after every stored time and one before
    /// year 0 before them all. `format` writes those as `+10000-…`, which sorts among them (found
    /// by an outside test: time travel to 10000-01-01 showed an empty library).
    public static func bound(_ date: Date) -> String {
        // The millisecond it falls in, not the nearest: 06.1275 must not take in an event of 06.128
        // (found by an outside walk). Whole microseconds first, so 06.128 read as 06.12799… stays 06.128.
        let millis = ((date.timeIntervalSince1970 * 1_000_000).rounded() / 1000).rounded(.down)
        let clamped = millis.isNaN ? 0 : Int64(min(max(millis, Double(firstMillis)), Double(lastMillis)))
        return UTCTime.format(millis: clamped, milliseconds: true) ?? format(date)
    }

    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    private static let (firstMillis, lastMillis): (Int64, Int64) = (-62_167_219_200_000, 253_402_300_799_999)

    public static func parse(_ text: String) throws -> Date {
        guard let millis = UTCTime.parse(text) else { return try parser.parse(text) }
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }
}
