import Domain
import Foundation
import Testing

@Suite("Bytes as hex text")
struct HexTextTests {
    @Test func everyByteIsTwoLowerCaseDigitsAsPrintfWritesThem() {
        let bytes = (0...255).map(UInt8.init)
        #expect(HexText.lowercase(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(HexText.lowercase([UInt8]()) == "")
    }
}
