import Application
import Domain
import Foundation
import Synchronization
import Testing

@testable import HTTPAPI

/// The fast paths' JSON kept by request and content (issue 20): an equal answer to the same request
/// in the same language is the bytes encoded before; any difference in the answer, another request
/// or another language, is encoded anew.
@Suite("Encoded answers")
struct EncodedAnswersTests {
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

    /// Kept answers to pages of one request, by content.
    typealias Pages = EncodedAnswers<String, Page<CatalogueEntry>>

    @Test func anEqualPageInTheSameLanguageIsNotEncodedAgain() {
        let pages = Pages()
        let encoder = Encoder()
        #expect(pages.body(Self.page(), for: "first page", in: .english) { encoder.encode("first") } == Array("first".utf8))
        #expect(pages.body(Self.page(), for: "first page", in: .english) { encoder.encode("second") } == Array("first".utf8))
        #expect(encoder.count == 1)

        // Another title, another total, another language, another request: each encoded anew
        #expect(
            pages.body(Self.page(title: "Dune Messiah"), for: "first page", in: .english) { encoder.encode("retitled") }
                == Array("retitled".utf8))
        #expect(pages.body(Self.page(total: 2), for: "first page", in: .english) { encoder.encode("counted") } == Array("counted".utf8))
        #expect(pages.body(Self.page(total: 2), for: "first page", in: .french) { encoder.encode("français") } == Array("français".utf8))
        #expect(pages.body(Self.page(total: 2), for: "by title", in: .english) { encoder.encode("by title") } == Array("by title".utf8))
        #expect(encoder.count == 5)
        // Each request and language keeps its newest answer
        #expect(pages.body(Self.page(total: 2), for: "first page", in: .english) { encoder.encode("again") } == Array("counted".utf8))
        #expect(pages.body(Self.page(total: 2), for: "first page", in: .french) { encoder.encode("again") } == Array("français".utf8))
        #expect(
            pages.body(Self.page(title: "Dune Messiah"), for: "first page", in: .english) { encoder.encode("again") } == Array("again".utf8)
        )
        #expect(encoder.count == 6)
    }

    @Test func whatIsKeptStaysWithinItsCapacity() {
        let pages = Pages(capacity: 40)
        let encoder = Encoder()
        for n in 1...4 { _ = pages.body(Self.page(total: n), for: "\(n)", in: .english) { encoder.encode("0123456789") } }
        for n in 1...4 { _ = pages.body(Self.page(total: n), for: "\(n)", in: .english) { encoder.encode("0123456789") } }
        #expect(encoder.count == 4, "forty bytes are kept")
        _ = pages.body(Self.page(total: 5), for: "5", in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 5)
        _ = pages.body(Self.page(total: 5), for: "5", in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 5, "the newest is kept")
        _ = pages.body(Self.page(total: 1), for: "1", in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 6, "the others were let go when the newest passed the capacity")
        // An answer replacing its request's keeps the count of bytes kept true
        for _ in 1...10 { _ = pages.body(Self.page(title: "\(encoder.count)"), for: "1", in: .english) { encoder.encode("0123456789") } }
        _ = pages.body(Self.page(total: 5), for: "5", in: .english) { encoder.encode("0123456789") }
        #expect(encoder.count == 16, "one answer per request is counted")
        _ = pages.body(Self.page(total: 9), for: "9", in: .english) { encoder.encode(String(repeating: "x", count: 11)) }
        _ = pages.body(Self.page(total: 9), for: "9", in: .english) { encoder.encode(String(repeating: "x", count: 11)) }
        #expect(encoder.count == 18, "an answer above a quarter of the capacity is not kept")
    }
}
