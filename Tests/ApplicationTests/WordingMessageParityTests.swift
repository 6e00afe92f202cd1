import Application
import Domain
import Foundation
import Testing
import Wording

/// While Application's `English` is still there: the Wording target's English says every message
/// sample as `English` did, but for days (`December 7, 2026` for `2026-12-07`), moments, grouped
/// counts (`3,650`) and lists of several books (joined with "and"). And every sample has French
/// words of its own, no key showing through. The first test goes when `English` goes.
@Suite struct WordingMessageParityTests {
    static let wording = Wording(.english)
    static let french = Wording(.french)
    static let english = English()

    @Test(arguments: MessageKey.allCases) func messagesReadAsBefore(key: MessageKey) {
        let sample = MessageSamples.sample(key)
        let before = Self.english.text(sample)
            .replacingOccurrences(of: "2026-12-07 00:00:00 UTC", with: "December 7, 2026 at 00:00 UTC")
            .replacingOccurrences(of: "2026-12-07", with: "December 7, 2026")
            .replacingOccurrences(of: "3650", with: "3,650")
            .replacingOccurrences(of: "“Dune”, a book", with: "“Dune” and a book")
        let now = Self.wording.text(sample)
        if case .closingWithLoans = sample {
            // Two books: "“The Hobbit” (due …) and a book (due …)" where English wrote a comma.
            #expect(now.contains("“The Hobbit” (due December 7, 2026) and a book (due "), "\(now)")
        } else if case .backup(.doesNotVerify) = sample {
            // English names the finding's values only: its words are the Wording target's.
            #expect(now == "/backups/library.sqlite does not verify, so nothing was restored: hash chain: the chain breaks at position 4")
        } else {
            #expect(now == before, "\(key)")
        }
    }

    @Test(arguments: MessageKey.allCases) func messagesHaveFrenchWords(key: MessageKey) {
        let sample = MessageSamples.sample(key)
        let french = Self.french.text(sample)
        MessageCatalogueTests.expectReadable(french, "\(key) in French")
        #expect(!french.contains("message."), "\(key): \(french)")
        #expect(french != Self.wording.text(sample), "\(key) is the same in French: \(french)")
    }
}
