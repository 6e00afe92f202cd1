import Application
import Foundation
import Testing

@Suite("Stored timestamps")
struct TimestampTests {
    /// A replay only sees stored text: formatting what was parsed must give the same text (this once failed by 1 ms).
    @Test func formattingIsStableThroughParsing() throws {
        var seconds = 1_790_000_000.0
        for step in 0..<5_000 {
            seconds += 0.000_7 * Double(step % 13) + 0.123_456_7
            let date = Date(timeIntervalSince1970: seconds)
            let text = Timestamp.format(date)
            #expect(Timestamp.format(try Timestamp.parse(text)) == text, "\(seconds)")
        }
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_790_000_000.5945)) == "2026-09-21T14:13:20.595Z")
    }

    /// The integer arithmetic agrees with Foundation's ISO 8601 over four centuries, leap days included.
    @Test func formatAndParseAgreeWithFoundation() throws {
        let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        let wholeSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt)
        func expected(_ date: Date) -> String {
            let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
            let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
            return String(Date(timeIntervalSince1970: Double(seconds)).formatted(wholeSeconds).dropLast())
                + String(format: ".%03lldZ", millis - seconds * 1000)
        }
        var generator = SystemRandomNumberGenerator()
        let leap = Date(timeIntervalSince1970: 951_782_400.25)  // 2000-02-29T00:00:00.250Z
        let dates =
            [leap, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5)]
            + (0..<5_000).map { _ in
                Date(timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &generator)) / 1000)
            }
        for date in dates {
            let text = Timestamp.format(date)
            #expect(text == expected(date), "\(date.timeIntervalSince1970)")
            // Foundation's own parse may differ in the last bits of the Double: compare milliseconds.
            let millis = { (date: Date) in (date.timeIntervalSince1970 * 1000).rounded() }
            #expect(millis(try Timestamp.parse(text)) == millis(try foundation.parse(text)), "\(text)")
        }
        #expect(Timestamp.format(leap) == "2000-02-29T00:00:00.250Z")
        #expect(try Timestamp.parse("2026-12-01T09:00:00Z") == Date(timeIntervalSince1970: 1_796_115_600))
    }
}
