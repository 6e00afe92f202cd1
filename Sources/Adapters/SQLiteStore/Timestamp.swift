import Foundation

/// How instants are written in the database: ISO 8601, UTC, milliseconds (`2026-09-21T14:13:20.595Z`).
/// Formatting goes through whole milliseconds so that format(parse(format(d))) == format(d): a
/// replay, which only sees the stored text, must write exactly what the live projection wrote.
/// Every event and read-model row goes through here, so the fixed form is done with integer
/// arithmetic (proleptic Gregorian calendar); anything else falls back to Foundation's parser.
enum Timestamp {
    private static let parser = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let dayMillis: Int64 = 86_400_000

    static func format(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let days = millis >= 0 ? millis / dayMillis : (millis - dayMillis + 1) / dayMillis
        let ofDay = millis - days * dayMillis
        let (year, month, day) = civil(days)
        var text = [UInt8]()
        text.reserveCapacity(24)
        func put(_ value: Int64, _ width: Int, then separator: Character) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var rest = value
            for index in stride(from: width - 1, through: 0, by: -1) {
                digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            text += digits
            text.append(separator.asciiValue!)
        }
        put(year, 4, then: "-")
        put(month, 2, then: "-")
        put(day, 2, then: "T")
        put(ofDay / 3_600_000, 2, then: ":")
        put(ofDay / 60_000 % 60, 2, then: ":")
        put(ofDay / 1000 % 60, 2, then: ".")
        put(ofDay % 1000, 3, then: "Z")
        return String(decoding: text, as: UTF8.self)
    }

    static func parse(_ text: String) throws -> Date {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
              bytes[23] == UInt8(ascii: "Z") else { return try parser.parse(text) }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let milli = number(20..<23),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
            return try parser.parse(text)
        }
        let millis = days(year, month, day) * dayMillis + ((hour * 60 + minute) * 60 + second) * 1000 + milli
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// Year, month, day of a count of days since 1970-01-01 (Howard Hinnant's civil_from_days).
    private static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a civil date (days_from_civil).
    private static func days(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
