/// Instants as ISO 8601 text in UTC (`2026-09-21T14:13:20Z`, `2026-09-21T14:13:20.595Z`) with
/// integer arithmetic on the proleptic Gregorian calendar (Howard Hinnant's civil-date
/// algorithms): the log, the read models and the API format several per event or row, and
/// Foundation's ISO 8601 styles cost microseconds each.
public enum UTCTime {
    private static let dayMillis: Int64 = 86_400_000

    /// The text of `millis` since 1970-01-01T00:00:00Z, with `.mmm` when `milliseconds` is set;
    /// nil outside the years 0 to 9999, which four digits cannot write.
    public static func format(millis: Int64, milliseconds: Bool) -> String? {
        let days = millis >= 0 ? millis / dayMillis : (millis - dayMillis + 1) / dayMillis
        let ofDay = millis - days * dayMillis
        let (year, month, day) = civil(days)
        guard (0...9999).contains(year) else { return nil }
        var text = [UInt8]()
        text.reserveCapacity(24)
        func put(_ value: Int64, _ width: Int, then separator: UInt8) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            text.append(separator)
        }
        put(year, 4, then: UInt8(ascii: "-"))
        put(month, 2, then: UInt8(ascii: "-"))
        put(day, 2, then: UInt8(ascii: "T"))
        put(ofDay / 3_600_000, 2, then: UInt8(ascii: ":"))
        put(ofDay / 60_000 % 60, 2, then: UInt8(ascii: ":"))
        if milliseconds {
            put(ofDay / 1000 % 60, 2, then: UInt8(ascii: "."))
            put(ofDay % 1000, 3, then: UInt8(ascii: "Z"))
        } else {
            put(ofDay / 1000 % 60, 2, then: UInt8(ascii: "Z"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Milliseconds since 1970 of exactly `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.mmmZ`;
    /// nil for any other shape (callers fall back to a general parser).
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[bytes.count - 1] == UInt8(ascii: "Z"), bytes.count == 20 || bytes[19] == UInt8(ascii: ".")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let milli = bytes.count == 24 ? number(20..<23) : 0,
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let count = days(year, month, day)
        guard civil(count) == (year, month, day) else { return nil }  // 31 February is not 3 March
        return count * dayMillis + ((hour * 60 + minute) * 60 + second) * 1000 + milli
    }

    /// Whether `text` is a date and a time of day that exist (`YYYY-MM-DDTHH:MM:SS`, years 0 to
    /// 9999), then optional fractions of a second, then `Z` or an offset up to ±23:59, and nothing
    /// else: Foundation's ISO 8601 parser rolls 30 February into March and 25:00 into the next
    /// day, reads `+00:99` as 1 h 39, and ignores what follows (found by outside walks).
    public static func isRealTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, parse(String(decoding: bytes[0..<19], as: UTF8.self) + "Z") != nil else { return false }
        var rest = bytes[19...]
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix(while: isDigit)
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(1 + digits.count)
        }
        if rest.elementsEqual([UInt8(ascii: "Z")]) { return true }
        guard rest.count == 6, rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-"),
            rest[rest.startIndex + 3] == UInt8(ascii: ":")
        else { return false }
        let offset = Array(rest)
        guard [1, 2, 4, 5].allSatisfy({ isDigit(offset[$0]) }) else { return false }
        let hours = Int(offset[1] - 48) * 10 + Int(offset[2] - 48)
        let minutes = Int(offset[4] - 48) * 10 + Int(offset[5] - 48)
        return hours < 24 && minutes < 60
    }

    /// Year, month, day of a count of days since 1970-01-01 (civil_from_days).
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
