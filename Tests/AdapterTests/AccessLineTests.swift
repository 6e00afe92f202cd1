import Foundation
import Testing

@testable import HTTPAPI

/// The access line's duration is written without `String(format:)` (issue 20: it cost more than
/// the rest of the line): milliseconds with three decimals, the nearest thousandth.
@Suite("Access line formatting")
struct AccessLineTests {
    @Test func durationsAreWrittenWithThreeDecimalsToTheNearestThousandth() {
        #expect(AccessLine.threeDecimals(0) == "0.000")
        #expect(AccessLine.threeDecimals(0.0004) == "0.000")
        #expect(AccessLine.threeDecimals(0.0126) == "0.013")
        #expect(AccessLine.threeDecimals(9.9996) == "10.000")
        #expect(AccessLine.threeDecimals(1234.5) == "1234.500")
        #expect(AccessLine.threeDecimals(86_400_000.25) == "86400000.250")
        for value in (0..<20_000).map({ Double($0) * 0.7311 + Double($0 % 7) * 1.3e-5 }) {
            let text = AccessLine.threeDecimals(value)
            let decimals = text.split(separator: ".").last?.count
            #expect(decimals == 3 && abs(Double(text)! - value) <= 0.000_500_1, "\(value): \(text)")
        }
    }

    @Test func aDurationThatIsNoNumberStillWritesOne() {
        for value in [-1, .nan, .infinity, 1e300] {
            #expect(AccessLine.threeDecimals(value) == "0.000")
        }
    }
}
