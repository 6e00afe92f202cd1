import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The templates, loaded once, and the HTML responses rendered from them. Every page is a
/// template that fills the `layout`'s blocks, given a small view model (never a domain type).
struct Pages: Sendable {
    let templates: MustacheLibrary
    let siteName: String

    init(siteName: String) throws {
        self.siteName = siteName
        guard let folder = Bundle.module.url(forResource: "Templates", withExtension: nil) else { throw MissingResource(name: "Templates") }
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "mustache" {
            try library.register(
                String(decoding: try Data(contentsOf: file), as: UTF8.self), named: file.deletingPathExtension().lastPathComponent)
        }
        templates = library
    }

    /// The page `template` filled with `page`, framed by the layout for the current visit.
    func render(
        _ template: String, _ page: some Sendable, title: String, status: HTTPResponse.Status = .ok, meta: ShareMeta? = nil
    ) -> Response {
        let visit = Visit.current
        let frame = Frame(visit: visit, title: title, siteName: siteName, meta: meta)
        let html = templates.render(Rendered(frame: frame, page: page), withTemplate: template) ?? ""
        return Self.html(html, status: status)
    }

    /// An HTML response that no cache keeps: pages show who is logged in.
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// What a template sees: the frame (header, flash, form token) and the page's own model.
struct Rendered<Page: Sendable>: Sendable {
    let frame: Frame
    let page: Page
}

/// The parts of every page around its content.
struct Frame: Sendable {
    let title: String
    let siteName: String
    let loggedIn: Bool
    let librarian: Bool
    let displayName: String?
    let unread: Int
    let flash: String?
    let flashRefused: Bool
    let csrf: String
    /// Where the login page sends back to.
    let target: String
    /// Open Graph and Twitter card metadata, on pages meant to be shared.
    let meta: ShareMeta?

    init(visit: Visit, title: String, siteName: String, meta: ShareMeta?) {
        self.title = title
        self.siteName = siteName
        loggedIn = visit.account != nil
        librarian = visit.isLibrarian
        displayName = visit.account?.displayName
        unread = visit.unread
        flash = visit.flash
        flashRefused = visit.flashRefused
        csrf = visit.csrf
        target = visit.target
        self.meta = meta
    }
}

/// How a shared link previews in chat and social apps.
struct ShareMeta: Sendable {
    let title: String
    let description: String
    let image: String?
    let url: String
}

/// A resource of the web adapter that the build did not bundle.
struct MissingResource: Error, CustomStringConvertible {
    let name: String
    var description: String { "the web pages' \(name) are missing from the build" }
}
