import Application
import Domain
import Foundation
import Testing
import Wording

@testable import Web

/// The catalogue's list is written from its template's arrangements (`BookItems`) instead of
/// through Mustache book by book: the HTML must be the same, byte for byte.
@Suite("Web: the catalogue's list of books, written without Mustache per book")
struct WebBookItemsTests {
    /// Books that take every branch of the template: cover or none, available or not, a waiting
    /// list or none, lent before (by a name the reader may see, a hidden one, an erased one) or
    /// never, no authors, several, and text that must be escaped (markup, quotes, ampersands,
    /// characters outside ASCII, the private-use characters the arrangements mark values with).
    static var entries: [CatalogueEntry] {
        let day = Date(timeIntervalSince1970: 1_795_000_000)
        let first = Date(timeIntervalSince1970: 1_798_761_600)  // the first of a month: "1er" in French
        func entry(
            _ n: Int, _ title: String, _ authors: [String], cover: String? = nil, copies: Int = 2, onLoan: Int = 0, holds: Int = 0,
            setAside: Int = 0, checkout: CatalogueEntry.Checkout? = nil
        ) -> CatalogueEntry {
            CatalogueEntry(
                id: BookID(UUID(uuidString: String(format: "00000000-0000-7000-8000-%012d", n))!),
                details: BookDetails(title: title, authors: authors, coverURL: cover), copies: copies, onLoan: onLoan, addedAt: day,
                updatedAt: day, lastCheckout: checkout, holdCount: holds, setAside: setAside)
        }
        return [
            entry(1, "Dune", ["Frank Herbert"], cover: "https://covers.example.org/b/id/1-M.jpg"),
            entry(2, #"<script>alert("x")</script> & 'Co'"#, [#"O'Brien <b>"#, "A & B"], cover: #"https://example.org/c.jpg?a=1&b="2""#),
            entry(3, "Sans auteur", [], copies: 1, onLoan: 1, holds: 3),
            entry(4, "Les Misérables", ["Victor Hugo"], copies: 3, onLoan: 1, checkout: .init(name: "Zoë <Admin>", at: day)),
            entry(5, "Hidden", ["X"], onLoan: 2, holds: 1, checkout: .init(name: nil, at: first)),
            entry(6, "Erased", ["Y"], copies: 1, setAside: 1, checkout: .init(name: CatalogueEntry.Checkout.erasedName, at: day)),
            entry(7, "Marks \u{E000}1\u{E001} inside", ["\u{E000}"], cover: "javascript:alert(1)", copies: 1_500),
            entry(8, "e\u{301} <\u{301}", ["Ünïcødé 🙂"], cover: "http://example.org/x.png", holds: 1_234),
        ]
    }

    @Test(arguments: Language.allCases)
    func everyBookIsWrittenAsMustacheWritesTheTemplate(_ language: Language) throws {
        let pages = try Pages(siteName: nil)
        try Reader.$language.withValue(language) {
            let cells = Self.entries.map(BookCell.init)
            for (member, librarian) in [(false, false), (true, false), (false, true)] {
                for cell in cells {
                    let expected = try pages.bookItems.renderedByMustache([cell], member: member, librarian: librarian, in: language)
                    #expect(expected.hasPrefix("<li>") && expected.contains(#"data-id="\#(cell.id)""#))
                    #expect(
                        pages.bookItems.render([cell], member: member, librarian: librarian, in: language) == expected,
                        "\(cell.title), member \(member), librarian \(librarian), \(language)")
                }
                let list = pages.bookItems.render(cells, member: member, librarian: librarian, in: language)
                #expect(list == (try pages.bookItems.renderedByMustache(cells, member: member, librarian: librarian, in: language)))
                #expect(!list.contains("<script>") && list.contains("&lt;script&gt;alert(&quot;x&quot;)"), "values are escaped")
                #expect(!member || list.contains(language == .french ? "Emprunter" : "Borrow"), "the template's words in the language")
            }
        }
    }
}
