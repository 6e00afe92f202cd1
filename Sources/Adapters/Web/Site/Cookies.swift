import Foundation
import HTTPTypes
import Hummingbird

/// The cookies the pages use, read from a request and written on a response.
enum Cookies {
    /// The session's bearer token, the same token the API takes.
    static let session = "shelfmark_session"
    /// A random value that a visitor without a session has, so that its forms carry a token too.
    static let visitor = "shelfmark_visitor"
    /// One message to show on the next page (POST/Redirect/GET), then dropped.
    static let flash = "shelfmark_flash"
    /// The sort a visitor chose for the catalogue.
    static let catalogueSort = "shelfmark_sort"
    /// The language chosen with the header's switcher (`en`, `fr`).
    static let language = "shelfmark_lang"

    /// The value of the cookie `name` the request carries; the first one when it carries several.
    static func value(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value.removingPercentEncoding
            }
        }
        return nil
    }

    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, `Path=/`, and `Secure` when the pages
    /// are served over HTTPS. A nil `maxAge` is a cookie that lasts as long as the browser's session; 0 deletes it.
    static func set(_ name: String, _ value: String, maxAge: Int?, secure: Bool) -> String {
        let encoded = value.addingPercentEncoding(withAllowedCharacters: cookieValue) ?? ""
        var cookie = "\(name)=\(encoded); Path=/; HttpOnly; SameSite=Lax"
        if let maxAge { cookie += "; Max-Age=\(maxAge)" }
        if secure { cookie += "; Secure" }
        return cookie
    }

    /// Characters a cookie value may hold unencoded (RFC 6265 `cookie-octet`, without `%`).
    private static let cookieValue = CharacterSet(
        charactersIn: "!#$&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~")
}
