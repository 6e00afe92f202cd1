import Domain
import Mustache
import Synchronization
import Wording

/// The catalogue's list of books, written from the `catalogueitem` template without asking Mustache
/// for each book. Mustache finds every value by name through the context stack, with dynamic casts
/// and protocol-conformance checks: half of the catalogue page's CPU for twenty books. Instead the
/// template is rendered once for each arrangement of its sections (the reader's role, the book
/// available, waiting, with a cover, lent before), with markers in place of the values; a book is
/// then that text's pieces with its own values, HTML-escaped as Mustache escapes them. The template
/// stays the source of truth; `BookItemsTests` compares both renderings.
final class BookItems: Sendable {
    /// The template every book of the list is.
    static let template = "catalogueitem"
    private let libraries: [Language: MustacheLibrary]
    /// Each language's arrangements, made when first needed.
    private let arrangements = Mutex<[Arrangement: [Piece]]>([:])

    init(libraries: [Language: MustacheLibrary]) {
        self.libraries = libraries
    }

    /// The list items of `cells`, as the template writes them for a member or a librarian (or neither), in `language`.
    func render(_ cells: [BookCell], member: Bool, librarian: Bool, in language: Language) -> String {
        var html = ""
        html.reserveCapacity(cells.count * 1024)
        // One look under the lock per list, not one per book: the arrangements made so far.
        var known = arrangements.withLock { $0 }
        for cell in cells {
            let arrangement = Arrangement(cell, member: member, librarian: librarian, language: language)
            let pieces: [Piece]
            if let made = known[arrangement] {
                pieces = made
            } else {
                pieces = make(arrangement)
                known[arrangement] = pieces
            }
            for piece in pieces {
                switch piece {
                case .text(let text): html += text
                case .value(let value): Self.escape(value.of(cell), into: &html)
                }
            }
        }
        return html
    }

    /// The same items through Mustache, each value looked up by name, as the page wrote them before
    /// (`{{#books}}` around the template): what the tests compare `render` with.
    func renderedByMustache(_ cells: [BookCell], member: Bool, librarian: Bool, in language: Language) throws -> String {
        var library = libraries[language] ?? MustacheLibrary()
        try library.register("{{#books}}\n{{> \(Self.template)}}\n{{/books}}\n", named: "bookitems.reference")
        return library.render(ItemList(books: cells, member: member, librarian: librarian), withTemplate: "bookitems.reference") ?? ""
    }

    /// The arrangement rendered with markers, cut into pieces and kept for the next list.
    private func make(_ arrangement: Arrangement) -> [Piece] {
        let library = libraries[arrangement.language] ?? libraries[.standard]
        let marked = library?.render(Markers(arrangement), withTemplate: Self.template) ?? ""
        let pieces = Piece.split(marked)
        arrangements.withLock { $0[arrangement] = pieces }
        return pieces
    }

    /// `text` escaped as Mustache's `{{value}}` escapes it, appended to `html`; text with nothing to
    /// escape (nearly every title) is appended whole.
    static func escape(_ text: String, into html: inout String) {
        let special = text.utf8.contains {
            $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"")
                || $0 == UInt8(ascii: "'")
        }
        html += special ? PageText.escape(text) : text
    }
}

/// The values of one book the template shows.
enum BookValue: Int, CaseIterable, Sendable {
    case id, title, authors, cover, coverAlt, availability, waitingText, lastCheckout

    /// The value's name in the template.
    var name: String {
        switch self {
        case .id: "id"
        case .title: "title"
        case .authors: "authors"
        case .cover: "cover"
        case .coverAlt: "coverAlt"
        case .availability: "availability"
        case .waitingText: "waitingText"
        case .lastCheckout: "lastCheckout"
        }
    }

    func of(_ cell: BookCell) -> String {
        switch self {
        case .id: cell.id
        case .title: cell.title
        case .authors: cell.authors
        case .cover: cell.cover ?? ""
        case .coverAlt: cell.coverAlt
        case .availability: cell.availability
        case .waitingText: cell.waitingText
        case .lastCheckout: cell.lastCheckout ?? ""
        }
    }
}

/// Which of the template's sections a book's item shows, and in which language.
struct Arrangement: Hashable, Sendable {
    let member: Bool
    let librarian: Bool
    let isAvailable: Bool
    let hasWaiting: Bool
    let hasCover: Bool
    let hasLastCheckout: Bool
    let language: Language

    init(_ cell: BookCell, member: Bool, librarian: Bool, language: Language) {
        self.member = member
        self.librarian = librarian
        isAvailable = cell.isAvailable
        hasWaiting = cell.hasWaiting
        hasCover = cell.cover != nil
        hasLastCheckout = cell.lastCheckout != nil
        self.language = language
    }
}

/// A piece of a rendered arrangement: text as it is, or where a book's value goes.
enum Piece: Sendable, Equatable {
    case text(String)
    case value(BookValue)

    static let open: Character = "\u{E000}"
    static let close: Character = "\u{E001}"

    /// The marker a value is rendered as: private-use characters, which HTML escaping leaves alone.
    static func marker(_ value: BookValue) -> String { "\(open)\(value.rawValue)\(close)" }

    /// `marked` cut at its markers.
    static func split(_ marked: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(marked)
        while let open = rest.firstIndex(of: open), let close = rest[open...].firstIndex(of: close),
            let value = Int(rest[rest.index(after: open)..<close]).flatMap(BookValue.init(rawValue:))
        {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            pieces.append(.value(value))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }
}

/// What the template sees when an arrangement is rendered: the sections' answers, and markers for the values.
private struct Markers: MustacheParent {
    let arrangement: Arrangement

    init(_ arrangement: Arrangement) { self.arrangement = arrangement }

    func child(named name: String) -> Any? {
        switch name {
        case "member": return arrangement.member
        case "librarian": return arrangement.librarian
        case "isAvailable": return arrangement.isAvailable
        case "hasWaiting": return arrangement.hasWaiting
        case "cover": return arrangement.hasCover ? Piece.marker(.cover) : Absent()
        case "lastCheckout": return arrangement.hasLastCheckout ? Piece.marker(.lastCheckout) : Absent()
        default: return BookValue.allCases.first { $0.name == name }.map(Piece.marker)
        }
    }
}

/// The books and the reader's role, as the catalogue's view gives them to the list's template.
private struct ItemList: MustacheParent {
    let books: [BookCell]
    let member: Bool
    let librarian: Bool

    func child(named name: String) -> Any? {
        switch name {
        case "books": return books
        case "member": return member
        case "librarian": return librarian
        default: return nil
        }
    }
}
