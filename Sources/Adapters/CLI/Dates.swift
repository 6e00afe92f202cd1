import Domain
import Foundation
import Wording

/// Dates in tables as a reader of the run's language writes them (`December 7, 2026`,
/// `7 décembre 2026`; to the minute `December 7, 2026 14:05`, `7 décembre 2026 14:05`), in the local
/// time zone (`TZ`): the month in words, so no reader takes the day for the month. `--json` writes
/// the API's UTC date-times instead.
enum TableDates {
    /// `December 7, 2026` or `7 décembre 2026`.
    static func day(_ date: Date, in zone: TimeZone = .current, language: Language = Speaking.language) -> String {
        Formats(language, zone: zone).day(date)
    }

    /// `December 7, 2026 14:05` or `7 décembre 2026 14:05`.
    static func minute(_ date: Date, in zone: TimeZone = .current, language: Language = Speaking.language) -> String {
        Formats(language, zone: zone).minute(date)
    }

    /// An ISO 8601 UTC text as the log stores it (`2026-12-07T14:05:09.123Z`), as `minute` writes it;
    /// a text that is not one is shown as it is.
    static func minute(iso text: String, in zone: TimeZone = .current, language: Language = Speaking.language) -> String {
        guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: fractional)) else { return text }
        return minute(date, in: zone, language: language)
    }

    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
