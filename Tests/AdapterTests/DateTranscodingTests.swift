import Foundation
import OpenAPIRuntime
import Testing

@testable import APIContract
@testable import HTTPAPI

@Suite("Dates in the API")
struct DateTranscodingTests {
    /// Written and read exactly as the runtime's default ISO 8601 transcoder does, over four centuries.
    @Test func sameTextAndDatesAsTheDefaultTranscoder() throws {
        let ours = WholeSecondDates()
        let reference: any DateTranscoder = .iso8601
        var generator = SystemRandomNumberGenerator()
        let dates =
            [Date(timeIntervalSince1970: 951_782_400.999), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.5)]
            + (0..<3_000).map { _ in Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...4_102_444_800, using: &generator)) }
        for date in dates {
            let text = try ours.encode(date)
            #expect(text == (try reference.encode(date)), "\(date.timeIntervalSince1970)")
            #expect(try ours.decode(text) == (try reference.decode(text)), "\(text)")
        }
        #expect(try ours.encode(Date(timeIntervalSince1970: 951_782_400.999)) == "2000-02-29T00:00:00Z")
        #expect(try ours.decode("2026-12-01T09:00:00+02:00") == Date(timeIntervalSince1970: 1_796_108_400))
        #expect(throws: (any Error).self) { try ours.decode("yesterday") }
    }

    /// What is not a date-time is the caller's mistake: a 400 problem, never a 500.
    @Test func aBadDateTimeIsA400() async throws {
        #expect(throws: DecodingError.self) { try WholeSecondDates().decode("0") }
        try await withAPI { api in
            for bad in ["0", "", "null", "0141-01-24T00%3A06%3A23%2B18%3A11", "2026-02-31T00%3A00%3A00Z"] {
                let answer = try await api.send(.get, "/api/v1/audit/as-of?at=\(bad)&view=books")
                #expect(answer.status == .badRequest, "\(bad): \(answer.text)")
            }
        }
    }
}
