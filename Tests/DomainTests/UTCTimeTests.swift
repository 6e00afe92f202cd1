import Domain
import Testing

@Suite("UTC time as text")
struct UTCTimeTests {
    @Test func daysPastTheEndOfTheirMonthAreNotDates() {
        #expect(UTCTime.parse("2026-02-31T00:00:00Z") == nil)
        #expect(UTCTime.parse("2025-02-29T00:00:00.000Z") == nil)
        #expect(UTCTime.parse("2026-04-31T00:00:00Z") == nil)
        #expect(UTCTime.parse("2024-02-29T00:00:00Z") == 1_709_164_800_000)
        #expect(UTCTime.parse("2026-12-31T23:59:59.999Z") == 1_798_761_599_999)
    }

    @Test(arguments: ["", "0", "true", "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01 09:00:00Z", "2026-12-01T09:00:00+01:00"])
    func otherShapesAreLeftToAGeneralParser(text: String) {
        #expect(UTCTime.parse(text) == nil)
    }

    @Test func yearsFourDigitsCannotWriteAreLeftToTheCaller() {
        #expect(UTCTime.format(millis: 253_402_300_800_000, milliseconds: true) == nil)  // 10000-01-01
        #expect(UTCTime.format(millis: -62_167_219_200_001, milliseconds: false) == nil)  // before year 0
        #expect(UTCTime.format(millis: 253_402_300_799_999, milliseconds: true) == "9999-12-31T23:59:59.999Z")
        #expect(UTCTime.format(millis: -62_167_219_200_000, milliseconds: false) == "0000-01-01T00:00:00Z")
    }
}
