import Testing

@testable import CLI

/// The CLI's table: a cell of several lines keeps its continuation lines under its column, and
/// a long cell is cut at a word, never inside a timestamp.
@Suite("CLI table cells")
struct CLITableTests {
    @Test func aCellsContinuationLinesSitUnderItsColumn() {
        // Given a row whose last cell has two lines
        let rows = [["1", "book.edited.v1", "publisher: Chilton →\nHarper"]]
        // When it is drawn
        let lines = table(["#", "TYPE", "CHANGES"], rows).split(separator: "\n").map(String.init)
        // Then the second line starts where the column does
        let column = lines[1].range(of: "publisher")!.lowerBound.utf16Offset(in: lines[1])
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[2] == String(repeating: " ", count: column) + "Harper", "\(lines)")
    }

    @Test func aLongChangeWrapsAtWordsAndKeepsTimestampsWhole() {
        let change = "expiresAt: 2026-11-24T14:11:47.263Z → 2026-12-23T14:11:52.345Z"
        let drawn = table(["CHANGES"], [[wrapped(change, width: 40, lines: 4)]], maxWidth: 40)
        #expect(drawn.contains("2026-11-24T14:11:47.263Z") && drawn.contains("2026-12-23T14:11:52.345Z") && !drawn.contains("…"))
        #expect(cut("a long description of the book that goes on", 20) == "a long description…")
        #expect(cut("2026-11-24T14:11:47.263Z", 10) == "2026-11-24T14:11:47.263Z")
    }
}
