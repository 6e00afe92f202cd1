import Domain
import Foundation
import Wording

/// The parts of every page around its content.
struct Frame: Hashable, Sendable {
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
    /// The page's language, as `<html lang>` says it.
    let lang: String
    /// The page's language as Open Graph says it (`en_GB`, `fr_FR`).
    let ogLocale: String
    /// The header's language switcher: every language, each in its own words.
    let languages: [LanguageLink]
    /// The unread count as the badge's label says it ("2 unread").
    let unreadLabel: String
    /// The footer's line, naming the site.
    let footer: String

    /// The frame of `visit`'s page; with `csrf`, that text stands for the visitor's form token (`RenderedPages`).
    init(visit: Visit, title: String, siteName: String, meta: ShareMeta?, csrf: String? = nil) {
        self.title = title
        self.siteName = siteName
        loggedIn = visit.account != nil
        librarian = visit.isLibrarian
        displayName = visit.account?.displayName
        unread = visit.unread
        flash = visit.flash
        flashRefused = visit.flashRefused
        self.csrf = csrf ?? visit.csrf
        target = visit.target
        self.meta = meta
        let language = Reader.language
        lang = language.rawValue
        ogLocale = language == .french ? "fr_FR" : "en_GB"
        languages = Language.allCases.map { LanguageLink($0, current: $0 == language, back: visit.back) }
        unreadLabel = t("web.frame.unread", count: visit.unread, Formats(language).number(visit.unread))
        footer = t("web.frame.footer", siteName)
    }
}

/// One language in the header's switcher: a link that remembers the choice and comes back to this page.
struct LanguageLink: Hashable, Sendable {
    /// The language's tag (`en`, `fr`).
    let code: String
    /// The language's name in itself ("English", "Français"), never translated.
    let name: String
    let href: String
    let current: Bool

    init(_ language: Language, current: Bool, back: String) {
        code = language.rawValue
        name = LanguageOption.name(language)
        href = "\(LanguageChoice.path)?to=\(code)&back=" + (back.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "/")
        self.current = current
    }

    /// What a query value may hold unencoded.
    private static let unreserved = CharacterSet.alphanumerics.intersection(.init(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        .union(.init(charactersIn: "-._~/"))
}

/// A language a form offers (the account page's choice), named in itself.
struct LanguageOption: Sendable {
    let code: String
    let name: String
    let selected: Bool

    init(_ language: Language, selected: Bool) {
        code = language.rawValue
        name = Self.name(language)
        self.selected = selected
    }

    /// The language's name in itself ("English", "Français"): never translated.
    static func name(_ language: Language) -> String { language == .french ? "Français" : "English" }
}
