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
        // Every data symbol (00-99), each with its own check symbol, and Start C and Stop around them.
        for value in 0...99 {
            let widths = Code128.widths(digits: String(format: "%02d", value))!
            #expect(widths.count == 3 * 6 + 7 && widths.reduce(0, +) == 3 * 11 + 13, "\(value)")
            for symbol in stride(from: 0, to: 18, by: 6) {
                // The symbology's parity rule: a symbol's bars add up to an even number of modules.
                #expect((widths[symbol] + widths[symbol + 2] + widths[symbol + 4]) % 2 == 0, "\(value)")
                #expect(widths[symbol..<symbol + 6].reduce(0, +) == 11, "\(value)")
            }
            #expect(Array(widths.suffix(7)) == [2, 3, 3, 1, 1, 1, 2])
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
        #expect(root.name == "svg" && svg.contains(#"<svg xmlns="http://www.w3.org/2000/svg""#))
        let bars = try root.nodes(forXPath: "//*[local-name()='g']/*[local-name()='rect']")
        #expect(bars.count == 3 * 7 + 4, "three bars for each of Start C, five pairs and the check symbol, four for Stop")
        #expect(svg.contains("27410 38514"))
        let widths = Code128.widths(digits: card.digits)!
        #expect(svg.contains(#"width="\#((widths.reduce(0, +) + 20) * 2)""#), "2 px a module, quiet zones included")
    }
}
