import Application
import Domain
import Foundation
import Testing
import Wording

/// While Application's `English` is still there: the Wording target's English, read from
/// `en.lproj`, says every field problem and confirmation sample as `English` did, but for dates
/// (`December 7, 2026 at 14:05 UTC` for `2026-12-07 14:05:00 UTC`) and grouped counts (`1,234`).
/// Goes when `English` goes.
@Suite struct WordingParityTests {
    static let wording = Wording(.english)
    static let english = English()

    @Test func fieldProblemsReadAsBefore() {
        let problems = FieldProblemKey.allCases.map(FieldProblemSamples.sample) + FieldProblemSamples.everyVariant
        for problem in problems { #expect(Self.wording.text(problem) == Self.english.text(problem), "\(problem)") }
    }

    @Test func confirmationsReadAsBeforeButForDatesAndCounts() {
        for sample in ConfirmationTests.samples {
            let before = Self.english.text(sample)
                .replacingOccurrences(of: "2026-12-07 14:05:00 UTC", with: "December 7, 2026 at 14:05 UTC")
                .replacingOccurrences(of: ") at December", with: ") on December")
                .replacingOccurrences(of: "1234 events", with: "1,234 events")
            #expect(Self.wording.text(sample) == before, "\(sample)")
        }
    }
}
