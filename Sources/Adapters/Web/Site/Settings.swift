import Foundation

/// How the site is served: whether its cookies are `Secure`, which proxies are believed, how much a form may hold.
public struct WebSettings: Sendable {
    /// Cookies always `Secure` (the pages are served over HTTPS by this server or a proxy); when
    /// false, they are only when a trusted proxy says the request came over HTTPS.
    public var secureCookies = false
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    public var trustedProxies: Set<String> = []
    /// The most bytes a submitted form may have.
    public var maxFormBytes = 64 * 1024
    /// How long a login lasts (the session cookie's `Max-Age`), as long as the sessions the server opens.
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// The site's public address (`https://library.example.org`), for links shared elsewhere; nil: the request's `Host`.
    public var publicURL: String?
    /// The operator's own name for the site, in page titles and the header, the same in every
    /// language; nil: the library's name in the reader's language ("Shelfmark", "Bibliothèque").
    public var siteName: String?

    public init(secureCookies: Bool = false, trustedProxies: Set<String> = []) {
        self.secureCookies = secureCookies
        self.trustedProxies = trustedProxies
    }
}
