import Application
import Domain
import Foundation
import Testing
import Wording

/// Every message sample has French words of its own, readable, no key showing through.
@Suite struct WordingMessageParityTests {
    static let wording = Wording(.english)
    static let french = Wording(.french)
    @Test(arguments: MessageKey.allCases) func messagesHaveFrenchWords(key: MessageKey) {
        let sample = MessageSamples.sample(key)
        let french = Self.french.text(sample)
        MessageCatalogueTests.expectReadable(french, "\(key) in French")
        #expect(!french.contains("message."), "\(key): \(french)")
        #expect(french != Self.wording.text(sample), "\(key) is the same in French: \(french)")
    }
}
