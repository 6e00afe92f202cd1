import Application
import Domain
import Foundation
import Synchronization
import Testing

@testable import HTTPAPI

/// The list's JSON kept by content (issue 20): an equal page in the same language is answered with
/// the bytes encoded before; any difference in the page, or another language, is encoded anew.
@Suite("Encoded catalogue pages")
struct EncodedPagesTests {
    static func page(title: String = "Dune", total: Int = 1) -> Page<CatalogueEntry> {
        let day = Date(timeIntervalSince1970: 1_795_000_000)
        let entry = CatalogueEntry(
            id: BookID(UUID(uuidString: "00000000-0000-7000-8000-000000000001")!),
            details: BookDetails(title: title, authors: ["Frank Herbert"]), copies: 2, onLoan: 0, addedAt: day, updatedAt: day,
            lastCheckout: nil, holdCount: 0, setAside: 0)
        return Page(items: [entry], total: total, offset: 0, limit: 20)
    }

    /// Encodes as the text given, counting the calls.
    final class Encoder: Sendable {
        let calls = Mutex(0)
        func encode(_ text: String) -> [UInt8] {
            calls.withLock { $0 += 1 }
            return Array(text.utf8)
        }
        var count: Int { calls.withLock { $0 } }
    }

    @Test func anEqualPageInTheSameLanguageIsNotEncodedAgain() {
        let pages = EncodedPages()
        let encoder = Encoder()
        #expect(pages.body(Self.page(), in: .english) { encoder.encode("first") } == Array("first".utf8))
        #expect(pages.body(Self.page(), in: .english) { encoder.encode("second") } == Array("first".utf8))
        #expect(encoder.count == 1)

        // Another title, another total, another language: each encoded anew
        #expect(pages.body(Self.page(title: "Dune Messiah"), in: .english) { encoder.encode("retitled") } == Array("retitled".utf8))
        #expect(pages.body(Self.page(total: 2), in: .english) { encoder.encode("counted") } == Array("counted".utf8))
        #expect(pages.body(Self.page(), in: .french) { encoder.encode("français") } == Array("français".utf8))
        #expect(encoder.count == 4)
        #expect(pages.body(Self.page(title: "Dune Messiah"), in: .english) { encoder.encode("again") } == Array("retitled".utf8))
    }

    @Test func whatIsKeptStaysWithinItsCapacityOldestOutFirst() {
        let pages = EncodedPages(capacity: 40)
        let encoder = Encoder()
        _ = pages.body(Self.page(total: 1), in: .english) { encoder.encode("0123456789") }
        _ = pages.body(Self.page(total: 2), in: .english) { encoder.encode("0123456789") }
        _ = pages.body(Self.page(total: 3), in: .english) { encoder.encode("0123456789") }
        _ = pages.body(Self.page(total: 4), in: .english) { encoder.encode("0123456789") }
        _ = pages.body(Self.page(total: 5), in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 5)
        _ = pages.body(Self.page(total: 5), in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 5, "the newest is kept")
        _ = pages.body(Self.page(total: 1), in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 6, "the oldest went out")
        _ = pages.body(Self.page(total: 9), in: .english) { encoder.encode(String(repeating: "x", count: 11)) }
        _ = pages.body(Self.page(total: 9), in: .english) { encoder.encode(String(repeating: "x", count: 11)) }
        #expect(encoder.count == 8, "an answer above a quarter of the capacity is not kept")
    }
}
