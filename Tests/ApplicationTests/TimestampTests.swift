import Foundation
@testable import SQLiteStore
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
}
