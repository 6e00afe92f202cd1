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

    /// The longest start of `value` whose cookie `name` a browser keeps (at most 4,096 bytes of name
    /// and value; `limit` leaves room), ended with an ellipsis when cut. Each UTF-8 byte outside the
    /// cookie's own characters takes three once encoded (found by an outside test: a confirmation
    /// naming a 500-character title in Chinese made a 4.6 KB cookie, which browsers drop).
    static func fitting(_ value: String, named name: String, limit: Int = 4_000) -> String {
        func cost(_ text: some StringProtocol) -> Int {
            text.unicodeScalars.reduce(0) { total, scalar in
                total + (scalar.isASCII && cookieValue.contains(scalar) ? 1 : 3 * String(scalar).utf8.count)
            }
        }
        let room = limit - name.utf8.count - 1
        guard cost(value) > room else { return value }
        let ellipsis = "…"
        var kept = 0
        var end = value.startIndex
        for index in value.indices {
            let next = kept + cost(value[index...index])
            if next + cost(ellipsis) > room { break }
            kept = next
            end = value.index(after: index)
        }
        return value[..<end] + ellipsis
    }

    /// Characters a cookie value may hold unencoded (RFC 6265 `cookie-octet`, without `%`).
    private static let cookieValue = CharacterSet(
        charactersIn: "!#$&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~")
}
