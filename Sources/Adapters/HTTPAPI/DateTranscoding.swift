import Domain
import Foundation
import OpenAPIRuntime

/// The contract's `date-time` values as the runtime's default writes them (`2026-11-22T06:50:51Z`),
/// formatted with integer arithmetic: a page of 20 books has 60 dates, and Foundation's ISO 8601
/// style was a tenth of answering it. Other shapes are parsed by Foundation, as before.
struct WholeSecondDates: DateTranscoder {
    private let fallback = Date.ISO8601FormatStyle()

    func encode(_ date: Date) throws -> String {
        // Like Foundation: to the nearest millisecond first, then the whole second below it.
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        return UTCTime.format(millis: seconds * 1000, milliseconds: false)
    }

    func decode(_ text: String) throws -> Date {
        if text.utf8.count == 20, let millis = UTCTime.parse(text) { return Date(timeIntervalSince1970: Double(millis) / 1000) }
        return try fallback.parse(text)
    }
}
