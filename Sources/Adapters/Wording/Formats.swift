import Domain
import Foundation
import Synchronization

/// Numbers, days and moments as a reader of each language writes them, in UTC (the library's
/// time): `1,234` and `November 22, 2026 at 14:05 UTC` in English, `1 234` and
/// `22 novembre 2026 à 14:05 UTC` in French. The API and the log keep ISO 8601 and plain numbers.
public struct Formats: Sendable {
    public let language: Language

    public init(_ language: Language) { self.language = language }

    /// A count: `1,234` or `1 234`.
    public func number(_ value: some BinaryInteger) -> String {
        Int64(value).formatted(.number.locale(language.locale).grouping(.automatic))
    }

    /// A day: `November 22, 2026` or `22 novembre 2026`.
    public func day(_ date: Date) -> String { Self.format(date, language == .french ? "d MMMM yyyy" : "MMMM d, yyyy", language) }

    /// A day and time to the minute: `November 22, 2026 at 14:05 UTC` or `22 novembre 2026 à 14:05 UTC`.
    public func moment(_ date: Date) -> String {
        Self.format(date, language == .french ? "d MMMM yyyy 'à' HH:mm 'UTC'" : "MMMM d, yyyy 'at' HH:mm 'UTC'", language)
    }

    private static let formatters = Mutex<[String: DateFormatter]>([:])

    /// `DateFormatter` is not `Sendable`: each pattern's formatter is made once and used under the lock.
    private static func format(_ date: Date, _ pattern: String, _ language: Language) -> String {
        formatters.withLock { formatters in
            let key = "\(language.rawValue) \(pattern)"
            let formatter =
                formatters[key]
                ?? {
                    let formatter = DateFormatter()
                    formatter.locale = language.locale
                    formatter.timeZone = TimeZone(identifier: "UTC")
                    formatter.dateFormat = pattern
                    formatters[key] = formatter
                    return formatter
                }()
            return formatter.string(from: date)
        }
    }
}
