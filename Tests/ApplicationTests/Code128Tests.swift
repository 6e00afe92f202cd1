import Application
import Domain
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The card's barcode against Code 128 worked by hand from the symbology's table.
@Suite("Code 128 barcodes")
struct Code128Tests {
    /// "1234" in code set C: Start C (105), 12, 34, then the check symbol
    /// (105 + 1 × 12 + 2 × 34) mod 103 = 185 mod 103 = 82, then Stop.
    @Test func aShortValueEncodesAsWorkedByHand() {
        #expect(Code128.symbols(digits: "1234") == [105, 12, 34, 82, 106])
        let expected = [
            2, 1, 1, 2, 3, 2,  // Start C: 211232
            1, 1, 2, 2, 3, 2,  // 12: 112232
            1, 3, 1, 1, 2, 3,  // 34: 131123
            1, 2, 1, 2, 4, 1,  // 82 (check): 121241
            2, 3, 3, 1, 1, 1, 2,  // Stop: 2331112
        ]
        #expect(Code128.widths(digits: "1234") == expected)
    }

    /// A published example: Start C, 00, 01, 32: (105 + 0 + 2 + 96) mod 103 = 100.
    @Test func theCheckSymbolCountsTheStartAndEachPosition() {
        #expect(Code128.symbols(digits: "000132") == [105, 0, 1, 32, 100, 106])
        #expect(Code128.widths(digits: "000132")?.prefix(12) == [2, 1, 1, 2, 3, 2, 2, 1, 2, 2, 2, 2])
    }

    @Test func everySymbolIsElevenModulesWithAnEvenNumberOfBarModules() {
        for value in 0...105 {
            let widths = Code128.widths(digits: String(format: "%02d", value % 100))!
            #expect(widths.count == 31 && widths.reduce(0, +) == 11 * 4 + 13)
        }
        // Each symbol's bars add up to an even number of modules (the symbology's parity rule).
        let card = Code128.widths(digits: "2741038514")!
        for symbol in stride(from: 0, to: card.count - 7, by: 6) {
            let bars = card[symbol] + card[symbol + 2] + card[symbol + 4]
            #expect(bars % 2 == 0 && card[symbol..<symbol + 6].reduce(0, +) == 11)
        }
    }

    @Test func onlyAnEvenNumberOfDigitsEncodes() {
        #expect(Code128.symbols(digits: "123") == nil)
        #expect(Code128.symbols(digits: "") == nil)
        #expect(Code128.symbols(digits: "12a4") == nil)
        #expect(Code128.symbols(digits: "١٢") == nil)
    }

    @Test func theCardImageIsWellFormedSVGWithOneBarPerBarWidth() throws {
        let card = CardNumber(serial: 27_410_385)
        let svg = CardImage.svg(card)
        let document = try XMLDocument(xmlString: svg)
        let root = try #require(document.rootElement())
        #expect(root.name == "svg" && root.attribute(forName: "xmlns")?.stringValue == "http://www.w3.org/2000/svg")
        let bars = try root.nodes(forXPath: "//*[local-name()='g']/*[local-name()='rect']")
        #expect(bars.count == 3 * 7 + 1, "three bars per symbol, four for Stop")
        #expect(svg.contains("27410 38514"))
        let widths = Code128.widths(digits: card.digits)!
        #expect(root.attribute(forName: "width")?.stringValue == "\((widths.reduce(0, +) + 20) * 2)")
    }
}
