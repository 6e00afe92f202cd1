import Application
import Domain
import Foundation
import Hummingbird
import Testing
import Wording

@testable import Web

/// Pages shown to visitors who are not logged in are kept by their view (`RenderedPages`): an equal
/// view is answered with the HTML rendered before, a different one is rendered, every visitor gets
/// their own form token, members' pages are never kept, and memory is bounded.
@Suite("Web: pages kept by what they show")
struct WebRenderedPagesTests {
    private static func view(_ entries: [CatalogueEntry], query: String = "") -> CatalogueView {
        let page = Page(items: entries, total: entries.count, of: try! PageRequest(limit: 20))
        return CatalogueView(
            books: entries.map(BookCell.init), total: entries.count, query: query, availableOnly: false,
            sorts: [SortOption(value: "newest", label: "Newest", selected: true)], pager: Pager(page, path: "/books", keeping: [:]),
            member: false, librarian: false)
    }

    /// What the catalogue page's route does: the view, and its list filled in only when rendered.
    private static func render(_ pages: Pages, _ view: CatalogueView, filled: Counter? = nil) -> Response {
        let items = pages.bookItems
        return pages.render("catalogue", kept: view, title: "Catalogue") { view in
            filled?.add()
            view.bookItems = items.render(view.books, member: view.member, librarian: view.librarian, in: Reader.language)
        }
    }

    private static func text(_ response: Response) async throws -> String {
        let collected = Collected()
        try await response.body.write(CollectingWriter(into: collected))
        return String(buffer: collected.buffer)
    }

    /// `entry` with another title, another count on loan, or its last borrower's name taken out.
    static func changed(_ entry: CatalogueEntry, title: String? = nil, onLoan: Int? = nil, namingNoOne: Bool = false) -> CatalogueEntry {
        var details = entry.details
        details.title = title ?? details.title
        return CatalogueEntry(
            id: entry.id, details: details, copies: entry.copies, onLoan: onLoan ?? entry.onLoan, addedAt: entry.addedAt,
            updatedAt: entry.updatedAt,
            lastCheckout: namingNoOne ? entry.lastCheckout.map { .init(name: nil, at: $0.at) } : entry.lastCheckout,
            holdCount: entry.holdCount, setAside: entry.setAside)
    }

    private static func visitor(_ secret: String) -> Visit {
        var visit = Visit()
        visit.secret = secret
        visit.target = "/books"
        return visit
    }

    /// The page of `view` as the route renders it, asked twice: a page is kept the second time.
    private static func kept(_ pages: Pages, _ view: CatalogueView, filled: Counter? = nil) async throws -> String {
        _ = try await text(render(pages, view, filled: filled))
        return try await text(render(pages, view, filled: filled))
    }

    @Test func anEqualViewIsAnsweredWithThePageRenderedBeforeAndTheSameHTMLAsMustache() async throws {
        let pages = try Pages(siteName: nil)
        let filled = Counter()
        let view = Self.view(WebBookItemsTests.entries)
        for language in Language.allCases {
            try await Reader.$language.withValue(language) {
                try await Visit.$current.withValue(Self.visitor("one")) {
                    let first = try await Self.kept(pages, view, filled: filled)
                    let again = try await Self.text(Self.render(pages, view, filled: filled))
                    #expect(first == again)
                    var complete = view
                    complete.bookItems = pages.bookItems.render(view.books, member: false, librarian: false, in: language)
                    #expect(first == (try await Self.text(pages.render("catalogue", complete, title: "Catalogue"))), "\(language)")
                    #expect(first.contains(#"<html lang="\#(language.rawValue)">"#) && first.contains("Les Misérables"))
                }
            }
        }
        #expect(filled.value == 4, "rendered twice in each language (seen, then kept), the third time kept")
        #expect(pages.kept.count.pages == 2)
    }

    @Test func aViewThatChangedIsRenderedAgain() async throws {
        let pages = try Pages(siteName: nil)
        var entries = WebBookItemsTests.entries
        try await Visit.$current.withValue(Self.visitor("one")) {
            let before = try await Self.kept(pages, Self.view(entries))
            entries[0] = Self.changed(entries[0], title: "Dune Messiah")
            let after = try await Self.kept(pages, Self.view(entries))
            #expect(before.contains(">Dune</a>") && after.contains(">Dune Messiah</a>") && !after.contains(">Dune</a>"))
            entries[0] = Self.changed(entries[0], onLoan: 1)
            let lent = try await Self.kept(pages, Self.view(entries))
            #expect(lent.contains("1 of 2 available") && !after.contains("1 of 2 available"))
            let searched = try await Self.kept(pages, Self.view(entries, query: "dune"))
            #expect(searched.contains(#"value="dune""#) && !lent.contains(#"value="dune""#))
        }
        #expect(pages.kept.count.pages == 4)
    }

    @Test func theSameViewInAnotherFrameIsRenderedAgain() async throws {
        let pages = try Pages(siteName: nil)
        let view = Self.view(WebBookItemsTests.entries)
        var elsewhere = Self.visitor("one")
        elsewhere.target = "/books?offset=0"
        elsewhere.back = "/books?offset=0"
        for visit in [Self.visitor("one"), elsewhere] {
            let html = try await Visit.$current.withValue(visit) { try await Self.kept(pages, view) }
            #expect(html.contains("/language?to=fr&amp;back=/books%3Foffset%3D0") == (visit.back != "/"), "\(visit.back)")
        }
        let titled = try await Visit.$current.withValue(Self.visitor("one")) {
            try await Self.text(pages.render("catalogue", kept: view, title: "Another title"))
        }
        #expect(titled.contains("<title>Another title"))
        #expect(pages.kept.count.pages == 2, "another page to come back to, another title: each a page of its own")
    }

    @Test func everyVisitorGetsTheirOwnFormTokenInAKeptPage() async throws {
        let pages = try Pages(siteName: nil)
        let filled = Counter()
        var tokens: [String] = []
        for secret in ["first visitor", "second visitor", "third visitor"] {
            let visit = Self.visitor(secret)
            let html = try await Visit.$current.withValue(visit) {
                try await Self.text(
                    pages.render("login", kept: LoginProbe(), title: "Log in") { _ in filled.add() })
            }
            let token = try #require(Browser.formToken(in: html))
            #expect(token == visit.csrf && FormToken.matches(token, secret: secret))
            #expect(!html.contains(RenderedPages.tokenMarker))
            tokens.append(token)
        }
        #expect(Set(tokens).count == 3)
        #expect(filled.value == 2, "the third visitor had the page kept at the second's, with their own token")
    }

    @Test func textThatLooksLikeTheMarkerStaysAsTyped() async throws {
        let pages = try Pages(siteName: nil)
        let typed = "\u{E000}form-token\u{E001} \u{E000}form-token-1-2\u{E001}"
        let titled = Self.changed(WebBookItemsTests.entries[0], title: "Dune \(typed)")
        for secret in ["first visitor", "second visitor", "third visitor"] {
            let visit = Self.visitor(secret)
            let html = try await Visit.$current.withValue(visit) {
                try await Self.text(Self.render(pages, Self.view([titled], query: typed)))
            }
            #expect(html.contains(#"value="\#(typed)""#) && html.contains(">Dune \(typed)</a>") && !html.contains(visit.csrf))
        }
        #expect(!RenderedPages.tokenMarker.hasPrefix("\u{E000}form-token\u{E001}") && RenderedPages.tokenMarker.count > 30)
    }

    @Test func bookCellsNamingNoOneAreKeptByTheirEntriesAndLanguage() {
        let kept = KeptCells(capacity: 3)
        let named = WebBookItemsTests.entries
        #expect(named.contains { $0.lastCheckout?.name != nil })
        #expect(kept.cells(named, in: .english) == named.map(BookCell.init) && kept.count == 0, "a borrower's name is never kept")
        var entries = named.map { Self.changed($0, namingNoOne: true) }
        let english = Reader.$language.withValue(.english) { kept.cells(entries, in: .english) }
        #expect(english == entries.map(BookCell.init) && english[0].availability == "2 of 2 available")
        #expect(kept.cells(entries, in: .english) == english && kept.count == 1, "equal entries: the same cells, kept once")
        let french = Reader.$language.withValue(.french) { kept.cells(entries, in: .french) }
        #expect(french[0].availability != english[0].availability && kept.count == 2, "another language: cells of its own")
        entries[0] = Self.changed(entries[0], title: "Dune Messiah", onLoan: 1)
        let changed = kept.cells(entries, in: .english)
        #expect(changed[0].title == "Dune Messiah" && changed[0].availability == "1 of 2 available" && kept.count == 3)
        _ = kept.cells(Array(entries.prefix(2)), in: .english)
        #expect(kept.count == 3, "at most its capacity, oldest out first")
        let asked = Reader.$language.withValue(.english) { kept.cells(Array(entries.prefix(3)), in: .french) }
        let inFrench = Reader.$language.withValue(.french) { Array(entries.prefix(3)).map(BookCell.init) }
        #expect(asked == inFrench && asked != changed.prefix(3).map { $0 }, "worded in the language it is kept under")
        #expect(KeptCells(capacity: 0).cells(entries, in: .english) == changed)
    }

    @Test func aMembersPageOrAPageWithAMessageIsNeverKept() async throws {
        let pages = try Pages(siteName: nil)
        let id = UserID(UUID())
        var member = Self.visitor("session")
        member.principal = .user(id, .member, SessionID(UUID()))
        var named = member
        named.account = AccountSummary(
            id: id, email: try EmailAddress(parsing: "ada@example.org"), displayName: "Ada", country: "GB", role: .member,
            registeredAt: Date(timeIntervalSince1970: 0))
        var told = Self.visitor("visitor")
        told.flash = "You have logged out."
        for visit in [member, named, told] {
            try await Visit.$current.withValue(visit) {
                let html = try await Self.kept(pages, Self.view(WebBookItemsTests.entries))
                #expect(html.contains("Les Misérables") && !html.contains(RenderedPages.tokenMarker))
            }
        }
        #expect(pages.kept.count.pages == 0)
    }

    @Test func keptPagesAreBoundedOldestOutFirst() {
        let kept = RenderedPages(capacity: 64 * 1024)
        func key(_ n: Int) -> RenderedPages.Key { RenderedPages.Key(template: "t", language: .english, view: n) }
        let page = String(repeating: "x", count: 3 * 1024)
        var rendered = 0
        func ask(_ n: Int, times: Int = 1) {
            for _ in 0..<times {
                _ = kept.page(key(n), token: { "" }) {
                    rendered += 1; return page
                }
            }
        }
        ask(0, times: 2)
        let one = kept.count.weight
        #expect(kept.count.pages == 1 && one >= 2 * page.utf8.count, "the page, and its view as much again")
        for n in 1..<20 { ask(n, times: 2) }
        let fit = 64 * 1024 / one
        #expect(kept.count.weight <= 64 * 1024 && kept.count.pages == fit)
        ask(19)
        ask(0)
        #expect(rendered == 41, "the newest was kept, the oldest had gone")
        let huge = String(repeating: "y", count: 5 * 1024)
        for _ in 0..<2 { #expect(kept.page(key(99), token: { "" }) { huge }.readableBytes == huge.utf8.count) }
        #expect(kept.count.pages == fit, "a page over an eighth of the capacity is answered, not kept")
    }

    @Test func viewsAskedOnceDoNotPushOutThePagesVisitorsComeBackTo() {
        let kept = RenderedPages(capacity: 64 * 1024)
        func key(_ n: Int) -> RenderedPages.Key { RenderedPages.Key(template: "t", language: .english, view: n) }
        var rendered = 0
        for _ in 0..<2 {
            _ = kept.page(key(0), token: { "" }) {
                rendered += 1; return "the catalogue"
            }
        }
        for n in 1...(RenderedPages.seenLimit + 100) { _ = kept.page(key(n), token: { "" }) { "?junk=\(n)" } }
        #expect(
            kept.page(key(0), token: { "" }) {
                rendered += 1; return "rendered again"
            } == ByteBuffer(string: "the catalogue"))
        #expect(rendered == 2 && kept.count.pages == 1)
    }
}

/// A view the login template can be filled with: its form carries the visitor's token.
private struct LoginProbe: Hashable, Sendable {}

/// Counts calls from a `Sendable` closure.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

/// A response body's bytes, as `CollectingWriter` writes them.
private final class Collected: @unchecked Sendable {
    var buffer = ByteBuffer()
}

/// Collects a response body's buffers.
private struct CollectingWriter: ResponseBodyWriter {
    let into: Collected
    mutating func write(_ buffer: ByteBuffer) async throws { into.buffer.writeImmutableBuffer(buffer) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
