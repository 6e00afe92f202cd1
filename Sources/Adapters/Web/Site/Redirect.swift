import Foundation
import HTTPTypes
import Hummingbird

/// The answers that send the browser elsewhere (303 See Other, so a POST is followed by a GET).
enum Redirect {
    /// To `path`, leaving `flash` for the next page to show (as an alert when it is a refusal).
    static func see(_ path: String, flash: String? = nil, refused: Bool = false) -> Response {
        var response = Response(status: .seeOther, headers: [.location: path, .cacheControl: "no-store"])
        if let flash {
            let value = Cookies.fitting((refused ? "!" : "") + String(flash.prefix(1000)), named: Cookies.flash)
            response.headers.append(
                .init(name: .setCookie, value: Cookies.set(Cookies.flash, value, maxAge: 60, secure: Visit.current.secure)))
        }
        return response
    }

    /// To the login page, which sends back to `target` (a path of this site) afterwards.
    static func toLogin(from target: String?) -> Response {
        guard let target, target != "/" else { return see("/login") }
        return see("/login?next=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
    }

    /// `next` when it is a path of this site other than logging in or signing up, else `fallback`.
    static func local(_ next: String?, or fallback: String) -> String {
        guard let next = localPath(next), next != "/login", !next.hasPrefix("/login?"), !next.hasPrefix("/signup") else { return fallback }
        return next
    }

    /// `path` when it is a path of this site as a link writes it (never another site's address: not
    /// `//host`, `/\host` or anything with a scheme; printable ASCII only), else nil.
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"),
            path.allSatisfy({ $0 != "\\" && $0.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } == true })
        else { return nil }
        return path
    }
}
