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

    /// The site's name as the reader reads it: the operator's own, else the library's in the reader's language.
    var name: String { siteName ?? t("web.siteName") }

    /// The page `template` filled with `page`, framed by the layout for the current visit, in the reader's language.
    func render(
        _ template: String, _ page: some Sendable, title: String, status: HTTPResponse.Status = .ok, meta: ShareMeta? = nil
    ) -> Response {
        let frame = Frame(visit: Visit.current, title: title, siteName: name, meta: meta)
        let library = templates[Reader.language] ?? templates[.standard]
        let html = library?.render(Rendered(frame: frame, page: page), withTemplate: template) ?? ""
        var response = Self.html(html, status: status)
        response.headers[.contentLanguage] = frame.lang
        return response
    }

    /// An HTML response that no cache keeps: pages show who is logged in.
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
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

/// How a shared link previews in chat and social apps.
struct ShareMeta: Sendable {
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
