import Foundation

/// Dates in tables, written so no reader can take the day for the month: ISO 8601's order
/// (`2026-12-07`, `2026-12-07 14:05`), in the local time zone (`TZ`). `--json` writes the API's
/// UTC date-times instead.
enum TableDates {
    /// `2026-12-07`.
    static func day(_ date: Date, in zone: TimeZone = .current) -> String {
        let c = components(date, zone)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// `2026-12-07 14:05`.
    static func minute(_ date: Date, in zone: TimeZone = .current) -> String {
        let c = components(date, zone)
        return day(date, in: zone) + String(format: " %02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// An ISO 8601 UTC text as the log stores it (`2026-12-07T14:05:09.123Z`), as `minute` writes it;
    /// a text that is not one is shown as it is.
    static func minute(iso text: String, in zone: TimeZone = .current) -> String {
        guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: fractional)) else { return text }
        return minute(date, in: zone)
    }

    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func components(_ date: Date, _ zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    }
}
