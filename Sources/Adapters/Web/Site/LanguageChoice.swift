import Domain
import Foundation
import Hummingbird
import Wording

/// Which language a page is in: the one chosen with the header's switcher (remembered in a
/// cookie), else the account's saved preference, else the browser's `Accept-Language`, else English.
enum LanguageChoice {
    /// The switcher's address: `/language?to=fr&back=/books`.
    static let path = "/language"
    /// How long the choice is remembered: a year.
    static let lifetime = 365 * 24 * 3600

    /// The reader's language, from the strongest of what they said.
    static func language(cookie: String?, account: Language?, acceptLanguage: String?) -> Language {
        if let chosen = cookie.flatMap(Language.init(rawValue:)) { return chosen }
        if let account { return account }
        return Language.reading(acceptLanguage: acceptLanguage)
    }

    /// The switcher's answer: remembers the language asked for and goes back to the page it was
    /// asked from, when that is a path of this site (else the home page). Works without JavaScript.
    static func choose(_ request: Request, secure: Bool) -> Response {
        let query = Form.query(of: request)
        let back = Redirect.localPath(query["back"]) ?? "/"
        guard let language = query["to"].flatMap(Language.init(rawValue:)) else { return Redirect.see(back) }
        return Redirect.see(back).setting(cookie: cookie(language, secure: secure))
    }

    /// The cookie that remembers `language` for a year.
    static func cookie(_ language: Language, secure: Bool) -> String {
        Cookies.set(Cookies.language, language.rawValue, maxAge: lifetime, secure: secure)
    }

    /// The page to come back to after choosing a language: the page itself when it was asked for
    /// with GET; after a form was sent, the page the form was on (its `Referer`, when of this site).
    static func back(_ request: Request, target: String) -> String {
        if request.method == .get || request.method == .head { return target }
        guard let referer = request.headers[.referer], let url = URLComponents(string: referer), url.host == nil || sameHost(url, request)
        else { return "/" }
        let path = url.percentEncodedPath + (url.percentEncodedQuery.map { "?\($0)" } ?? "")
        return Redirect.localPath(path) ?? "/"
    }

    private static func sameHost(_ url: URLComponents, _ request: Request) -> Bool {
        guard let host = url.host, let authority = request.head.authority else { return false }
        return authority == host || authority.hasPrefix(host + ":")
    }
}
