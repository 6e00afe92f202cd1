import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// The library's own books: the catalogue with search, filter, sort and pages, and a book's page.
struct CataloguePages: Sendable {
    let site: Site
    static let pageSize = 20

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/books") { request, _ in try await catalogue(request) }
        router.get("/books/{id}") { request, context in try await book(context.parameters.require("id"), request: request) }
    }

    func catalogue(_ request: Request) async throws -> Response {
        let query = Form.query(of: request)
        let remembered = Cookies.value(Cookies.catalogueSort, in: request).flatMap(CatalogueSort.init(rawValue:))
        let asked = query["sort"].flatMap(CatalogueSort.init(rawValue:))
        let sort = asked ?? remembered ?? .newest
        let text = query["q"]
        let availableOnly = query["available"] != nil
        let offset = query.offset
        let asking = try PageRequest(limit: Self.pageSize, offset: offset)
        var feedback = Feedback()
        var page = Page<CatalogueEntry>(items: [], total: 0, of: asking)
        do {
            page = try await site.library.catalogue.listBooks.execute(
                CatalogueQuery(sort: sort, text: text, availableOnly: availableOnly), page: asking, by: site.visit.principal)
        } catch let error as InvalidInput {
            // Search words the catalogue cannot take (too long, a field it does not know): said above the form, which stays.
            feedback = Feedback(error, values: ["q": text ?? ""]) ?? feedback
        }
        // Cells that name no borrower are kept by their entries (`KeptCells`), whoever reads them.
        let cells = site.pages.cells.cells(page.items, in: Reader.language)
        var view = CatalogueView(
            books: cells, total: page.total, query: text ?? "", availableOnly: availableOnly,
            sorts: CatalogueSort.allCases.map { SortOption(value: $0.rawValue, label: Self.label($0), selected: $0 == sort) },
            pager: Pager(page, path: "/books", keeping: ["q": text, "sort": sort.rawValue, "available": availableOnly ? "1" : nil]),
            member: site.visit.account != nil && !site.visit.isLibrarian, librarian: site.visit.isLibrarian)
        view.feedback = feedback
        let items = site.pages.bookItems
        var response = site.pages.render(
            "catalogue", kept: view, title: t("web.catalogue.heading"), status: feedback.hasErrors ? .badRequest : .ok
        ) { view in view.bookItems = items.render(view.books, member: view.member, librarian: view.librarian, in: Reader.language) }
        if let asked, asked != remembered {
            response = response.setting(
                cookie: Cookies.set(Cookies.catalogueSort, asked.rawValue, maxAge: 365 * 24 * 3600, secure: site.visit.secure))
        }
        return response
    }

    func book(_ rawID: String, request: Request) async throws -> Response {
        guard let id = try? BookID.parse(rawID) else { throw PageError(.notFound, .noSuchPage) }
        let entry = try await site.library.catalogue.showBook.execute(id, by: site.visit.principal)
        var view = BookView(entry)
        if case .user(_, .member, _) = site.visit.principal {
            view.member = true
            let holds = try await site.library.circulation.holds.list.mine(page: try PageRequest(limit: 100), by: site.visit.principal)
                .items
            let open = holds.first { $0.book == id && ($0.status == .waiting || $0.status == .ready) }
            view.holdPosition = open?.position
            view.holdReady = open?.status == .ready
            view.holding = open != nil
            view.borrowed = try await site.library.circulation.list.mine(page: try PageRequest(limit: 100), by: site.visit.principal).items
                .contains { $0.book == id && $0.returnedAt == nil }
        }
        if site.visit.account != nil {
            let marks = try await site.library.bookmarks.list(page: try PageRequest(limit: 100), by: site.visit.principal)
            view.bookmarked = marks.items.contains { $0.book == id }
            view.loggedIn = true
        }
        view.librarian = site.visit.isLibrarian
        view.decide()
        let url = Self.absolute("/books/\(id)", request: request, secure: site.visit.secure, base: site.settings.publicURL)
        view.share(url)
        let meta = ShareMeta(
            title: entry.details.title, authors: entry.details.authors, description: view.summary, image: view.cover, url: url)
        return site.pages.render("book", kept: view, title: entry.details.title, meta: meta)
    }

    static func label(_ sort: CatalogueSort) -> String {
        switch sort {
        case .newest: t("web.catalogue.sort.newest")
        case .oldest: t("web.catalogue.sort.oldest")
        case .title: t("web.catalogue.sort.title")
        case .author: t("web.catalogue.sort.author")
        }
    }

    /// The page's address as a link shared elsewhere needs it: under the configured public address,
    /// else under the `Host` the browser asked (which a cache in front must then not share).
    static func absolute(_ path: String, request: Request, secure: Bool, base: String?) -> String {
        if let base { return (base.hasSuffix("/") ? String(base.dropLast()) : base) + path }
        let host = request.head.authority ?? "localhost"
        let clean = host.filter { $0.isLetter || $0.isNumber || ".-:[]".contains($0) }
        return "\(secure ? "https" : "http")://\(clean)\(path)"
    }
}

struct SortOption: Hashable, Sendable {
    let value: String
    let label: String
    let selected: Bool
}

struct CatalogueView: Hashable, Sendable {
    let books: [BookCell]
    /// How many books there are, as the page says it: "42 books", "3 matching books".
    let total: String
    let query: String
    let hasQuery: Bool
    /// The same words searched on Open Library.
    let openLibraryLink: String
    let availableOnly: Bool
    let sorts: [SortOption]
    let pager: Pager
    let member: Bool
    let librarian: Bool
    let isEmpty: Bool
    var feedback = Feedback()
    /// The list's items, HTML from the `catalogueitem` template (`BookItems`).
    var bookItems = ""

    init(
        books: [BookCell], total: Int, query: String, availableOnly: Bool, sorts: [SortOption], pager: Pager, member: Bool, librarian: Bool
    ) {
        self.books = books
        self.query = query
        hasQuery = !query.isEmpty
        let number = Formats(Reader.language).number(total)
        self.total = hasQuery ? t("web.catalogue.matching", count: total, number) : t("web.catalogue.books", count: total, number)
        openLibraryLink = SearchPages.link(query, .relevance, offset: 0)
        self.availableOnly = availableOnly
        self.sorts = sorts
        self.pager = pager
        self.member = member
        self.librarian = librarian
        isEmpty = books.isEmpty
    }
}

/// Links to the previous and next pages of a list, keeping its other parameters.
struct Pager: Hashable, Sendable {
    let previous: String?
    let next: String?
    /// "21–40 of 95" ("21–40 sur 95"); nil for an empty page.
    let range: String?

    init<Item>(_ page: Page<Item>, path: String, keeping parameters: [String: String?]) {
        func link(_ offset: Int) -> String {
            var items = parameters.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }.sorted {
                $0.name < $1.name
            }
            if offset > 0 { items.append(URLQueryItem(name: "offset", value: String(offset))) }
            var components = URLComponents()
            components.path = path
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? path
        }
        previous = page.offset > 0 ? link(max(0, page.offset - page.limit)) : nil
        next = page.nextOffset.map(link)
        let formats = Formats(Reader.language)
        range =
            page.items.isEmpty
            ? nil
            : t(
                "web.pager.range", formats.number(page.offset + 1), formats.number(page.offset + page.items.count),
                formats.number(page.total))
    }
}

/// A book's page.
struct BookView: Hashable, Sendable {
    let id: String
    let title: String
    let authors: String
    let isbn: String?
    let publisher: String?
    let categories: String?
    let cover: String?
    let description: String?
    let summary: String
    let copies: Int
    let available: Int
    let isAvailable: Bool
    let onLoan: Int
    let setAside: Int
    let waiting: Int
    let lastCheckout: String?
    var member = false
    var loggedIn = false
    var librarian = false
    var bookmarked = false
    var holding = false
    var borrowed = false
    var holdPosition: Int?
    var holdReady = false
    /// The page's sentences with numbers and the title in them, set by `decide()` (BookTexts.swift).
    private(set) var texts = BookTexts()
    var shareURL = ""
    /// The address and title percent-encoded, for the mail and social links.
    var mailLink = ""
    var xLink = ""
    var facebookLink = ""
    var mastodonLink = ""

    /// Sets the links that share the page at `url`.
    mutating func share(_ url: String) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let address = url.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let name = title.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        shareURL = url
        mailLink = "mailto:?subject=\(name)&body=\(address)"
        xLink = "https://x.com/intent/post?url=\(address)&text=\(name)"
        facebookLink = "https://www.facebook.com/sharer/sharer.php?u=\(address)"
        mastodonLink = "https://mastodonshare.com/?url=\(address)&text=\(name)"
    }
    /// Set by `decide()` once the reader's own loans and holds are known (templates see stored properties only).
    private(set) var canHold = false
    private(set) var canBorrow = false
    let someOnLoan: Bool
    let someSetAside: Bool

    /// What the reader may do with the book.
    mutating func decide() {
        texts = BookTexts(self)
        canHold = member && !isAvailable && !holding && !borrowed
        canBorrow = member && (isAvailable || holdReady) && !borrowed
    }

    init(_ entry: CatalogueEntry) {
        id = entry.id.description
        title = entry.details.title
        authors = entry.details.authors.joined(separator: ", ")
        isbn = entry.details.isbn?.description
        publisher = entry.details.publisher
        categories = entry.details.categories.isEmpty ? nil : entry.details.categories.joined(separator: ", ")
        cover = Covers.safe(entry.details.coverURL)
        description = entry.details.description
        let names = authors
        summary =
            entry.details.description.map { t("web.catalogue.bookSummaryDescribed", names, Self.excerpt($0)) }
            ?? t("web.catalogue.bookSummary", entry.details.title, names)
        copies = entry.copies
        available = max(0, entry.available)
        isAvailable = entry.available > 0
        onLoan = entry.onLoan
        setAside = entry.setAside
        someOnLoan = entry.onLoan > 0
        someSetAside = entry.setAside > 0
        waiting = entry.waiting
        lastCheckout = entry.lastCheckout.map(BookCell.checkoutUnderLabel)
    }

    /// The start of a description for a link's preview: at most `limit` characters, cut between words.
    static func excerpt(_ text: String, limit: Int = 200) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard flat.count > limit else { return flat }
        let cut = flat.prefix(limit - 1)
        let words = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return words + "…"
    }
}
