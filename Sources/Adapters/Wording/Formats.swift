import Domain
import Foundation
import Synchronization

/// Numbers, days and moments as a reader of each language writes them, in UTC (the library's
/// time) unless told another zone: `1,234` and `November 22, 2026 at 14:05 UTC` in English,
/// `1 234` and `22 novembre 2026 à 14:05 UTC` in French. The API and the log keep ISO 8601 and
/// plain numbers.
public struct Formats: Sendable {
    public let language: Language
    /// The zone days and times are told in.
    public let zone: TimeZone

    public init(_ language: Language, zone: TimeZone = .gmt) {
        self.language = language
        self.zone = zone
    }

    /// A count: `1,234` or `1 234`.
    public func number(_ value: some BinaryInteger) -> String {
        // Below a thousand no language groups digits: the digits themselves, without asking ICU
        // (a twentieth of the catalogue page, which writes three counts per book).
        if let small = Int(exactly: value), (0..<1000).contains(small) { return String(small) }
        return Int64(value).formatted(.number.locale(language.locale).grouping(.automatic))
    }

    /// A day: `November 22, 2026` or `22 novembre 2026` (`1er décembre 2026`).
    public func day(_ date: Date) -> String { format(date, language == .french ? "\(frenchDay(date)) MMMM yyyy" : "MMMM d, yyyy") }

    /// A day and time to the minute, the zone not said: `November 22, 2026 14:05` or `22 novembre 2026 14:05`.
    public func minute(_ date: Date) -> String {
        format(date, language == .french ? "\(frenchDay(date)) MMMM yyyy HH:mm" : "MMMM d, yyyy HH:mm")
    }

    /// A day and time to the minute: `November 22, 2026 at 14:05 UTC` or `22 novembre 2026 à 14:05 UTC`.
    public func moment(_ date: Date) -> String {
        format(date, language == .french ? "\(frenchDay(date)) MMMM yyyy 'à' HH:mm 'UTC'" : "MMMM d, yyyy 'at' HH:mm 'UTC'")
    }

    /// French writes the first of a month as an ordinal (`1er`), the other days as numbers.
    private func frenchDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.component(.day, from: date) == 1 ? "d'er'" : "d"
    }

    private static let formatters = Mutex<[String: DateFormatter]>([:])

    /// `DateFormatter` is not `Sendable`: each pattern's formatter is made once and used under the lock.
    private func format(_ date: Date, _ pattern: String) -> String {
        let (language, zone) = (language, zone)
        return Self.formatters.withLock { formatters in
            let key = "\(language.rawValue) \(zone.identifier) \(pattern)"
            let formatter =
                formatters[key]
                ?? {
                    let formatter = DateFormatter()
                    formatter.locale = language.locale
                    formatter.timeZone = zone
                    formatter.dateFormat = pattern
                    formatters[key] = formatter
                    return formatter
                }()
            return formatter.string(from: date)
        }
    }
}
