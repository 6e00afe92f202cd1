import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import Wording

/// The templates, loaded once per language, and the HTML responses rendered from them. Every page
/// is a template that fills the `layout`'s blocks, given a small view model (never a domain type).
/// A template names each of its texts by key between double square brackets: each language's copy has them replaced by that
/// language's text, HTML-escaped, so rendering picks the reader's language and reads no text twice.
struct Pages: Sendable {
    let templates: [Language: MustacheLibrary]
    /// The catalogue's list of books, written from its template without a Mustache lookup per value.
    let bookItems: BookItems
    /// The operator's own name for the site; nil: the library's name in the reader's language.
    let siteName: String?

    init(siteName: String?) throws {
        self.siteName = siteName
        guard let folder = Bundle.module.url(forResource: "Templates", withExtension: nil) else { throw MissingResource(name: "Templates") }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .map { ($0.deletingPathExtension().lastPathComponent, String(decoding: try Data(contentsOf: $0), as: UTF8.self)) }
        var templates: [Language: MustacheLibrary] = [:]
        for language in Language.allCases {
            var library = MustacheLibrary()
            for (name, text) in files { try library.register(PageText.fill(text, in: language), named: name) }
            templates[language] = library
        }
        self.templates = templates
        bookItems = BookItems(libraries: templates)
    }

    /// The pages shown to visitors not logged in, kept by their view (`RenderedPages`).
    let kept = RenderedPages()
    /// The catalogue's book cells that name no borrower, kept by their entries (`KeptCells`).
    let cells = KeptCells()

    /// The site's name as the reader reads it: the operator's own, else the library's in the reader's language.
    var name: String { siteName ?? t("web.siteName") }

    /// The page `template` filled with `page`, framed by the layout for the current visit, in the reader's language.
    func render(
        _ template: String, _ page: some Sendable, title: String, status: HTTPResponse.Status = .ok, meta: ShareMeta? = nil
    ) -> Response {
        let frame = Frame(visit: Visit.current, title: title, siteName: name, meta: meta)
        var response = Self.html(html(template, Rendered(frame: frame, page: page)), status: status)
        response.headers[.contentLanguage] = frame.lang
        return response
    }

    /// `render`, for a view that says what the page shows: a visitor who is not logged in (and has
    /// no message from the last request) is answered with the HTML kept for an equal view, if there
    /// is one (`RenderedPages`). `complete` fills in what the view derives from its own values (the
    /// catalogue's list), when it must be rendered.
    func render<View: Hashable & Sendable>(
        _ template: String, kept page: View, title: String, status: HTTPResponse.Status = .ok, meta: ShareMeta? = nil,
        complete: @escaping (inout View) -> Void = { _ in }
    ) -> Response {
        let visit = Visit.current
        guard visit.account == nil, visit.flash == nil, case .anonymous = visit.principal else {
            var page = page
            complete(&page)
            return render(template, page, title: title, status: status, meta: meta)
        }
        let frame = Frame(visit: visit, title: title, siteName: name, meta: meta, csrf: RenderedPages.tokenMarker)
        let key = RenderedPages.Key(template: template, language: Reader.language, view: Rendered(frame: frame, page: page))
        let body = kept.page(key, token: { visit.csrf }) {
            var page = page
            complete(&page)
            return html(template, Rendered(frame: frame, page: page))
        }
        var response = Response(status: status, headers: Self.htmlHeaders, body: .init(byteBuffer: body))
        response.headers[.contentLanguage] = frame.lang
        return response
    }

    /// `template` filled with `rendered`, in the reader's language, without control characters.
    private func html(_ template: String, _ rendered: Rendered<some Sendable>) -> String {
        let library = templates[Reader.language] ?? templates[.standard]
        return Self.withoutControlCharacters(library?.render(rendered, withTemplate: template) ?? "")
    }

    /// `html` without the control characters (but tabs and line breaks; C1's too) a visitor's text
    /// may bring into a page, echoed in a form (found by outside walks: `/books?q=%00` put a NUL in
    /// the search box's value, `%C2%85` a NEL): HTML has no place for them, and escaping leaves them be.
    static func withoutControlCharacters(_ html: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || (0x7F...0x9F).contains(scalar.value)
        }
        // Bytes first, as most pages have none: C0 and DEL are single bytes, C1 is 0xC2 then 0x80–0x9F.
        var previous: UInt8 = 0
        let found = html.utf8.contains { byte in
            defer { previous = byte }
            return (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
                || (previous == 0xC2 && (0x80...0x9F).contains(byte))
        }
        guard found else { return html }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: html.unicodeScalars.filter { !isControl($0) })
        return String(kept)
    }

    /// An HTML response that no cache keeps: pages show who is logged in.
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: htmlHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private static let htmlHeaders: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
}

/// The texts a template names by key in double square brackets.
enum PageText {
    /// `template` with every key between double square brackets replaced by the key's text in `language`, HTML-escaped.
    static func fill(_ template: String, in language: Language) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.range(of: "[["), let close = rest[open.upperBound...].range(of: "]]") {
            let key = rest[open.upperBound..<close.lowerBound]
            result += rest[..<open.lowerBound]
            if !key.isEmpty, key.allSatisfy(isKeyCharacter) {
                result += escape(pageTexts.template(String(key), in: language))
            } else {
                result += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// `text` safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func isKeyCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_")
    }
}

/// What a template sees: the frame (header, flash, form token) and the page's own model.
struct Rendered<Page: Sendable>: Sendable {
    let frame: Frame
    let page: Page
}

extension Rendered: Equatable where Page: Equatable {}
extension Rendered: Hashable where Page: Hashable {}

/// How a shared link previews in chat and social apps.
struct ShareMeta: Hashable, Sendable {
    let title: String
    /// One `book:author` tag each.
    let authors: [String]
    let description: String
    let image: String?
    let url: String
}

/// A resource of the web adapter that the build did not bundle.
struct MissingResource: Error, CustomStringConvertible {
    let name: String
    var description: String { "the web pages' \(name) are missing from the build" }
}
