import Domain
import Foundation
import OpenAPIRuntime

/// The contract's `date-time` values as the runtime's default writes them (`2026-11-22T06:50:51Z`),
/// formatted with integer arithmetic: a page of 20 books has 60 dates, and Foundation's ISO 8601
/// style was a tenth of answering it. Other shapes are parsed by Foundation, as before; what is not
/// a date-time (31 February included) is a decoding error, which the API answers with a 400.
public struct WholeSecondDates: DateTranscoder {
    private let fallback = Date.ISO8601FormatStyle()

    public init() {}

    public func encode(_ date: Date) throws -> String {
        // Like Foundation: to the nearest millisecond first, then the whole second below it.
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        return UTCTime.format(millis: seconds * 1000, milliseconds: false) ?? date.formatted(fallback)  // beyond year 9999
    }

    public func decode(_ text: String) throws -> Date {
        // The canonical shape is ours to judge (Foundation would take 31 February for 3 March).
        if text.utf8.count == 20 {
            guard let millis = UTCTime.parse(text) else { throw notADate(text) }
            return Date(timeIntervalSince1970: Double(millis) / 1000)
        }
        guard UTCTime.isRealTime(text) else { throw notADate(text) }
        do { return try fallback.parse(text) } catch { throw notADate(text) }
    }

    /// A decoding error is the caller's mistake (400); Foundation's own error would be a 500.
    private func notADate(_ text: String) -> DecodingError {
        .dataCorrupted(
            .init(
                codingPath: [], debugDescription: "expected an ISO 8601 date-time such as 2026-12-01T09:00:00Z, not '\(text.prefix(40))'"))
    }
}
