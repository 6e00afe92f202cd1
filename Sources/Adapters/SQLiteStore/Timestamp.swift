import Foundation

/// How instants are written in the database: ISO 8601, UTC, milliseconds. Formatting goes through
/// whole milliseconds so that format(parse(format(d))) == format(d): a replay, which only sees the
/// stored text, must write exactly what the live projection wrote from the in-memory date.
enum Timestamp {
    private static let seconds = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt)
    private static let parser = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    static func format(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let whole = millis.quotientAndRemainder(dividingBy: 1000)
        let (secondsPart, fraction) = whole.remainder < 0 ? (whole.quotient - 1, whole.remainder + 1000) : whole
        let text = seconds.format(Date(timeIntervalSince1970: TimeInterval(secondsPart)))
        return String(text.dropLast()) + String(format: ".%03lldZ", fraction)
    }

    static func parse(_ text: String) throws -> Date {
        try parser.parse(text)
    }
}
