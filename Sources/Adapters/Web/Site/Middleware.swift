import Application
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Wording

/// Headers every response of the site carries: no inline script or style, no framing, no
/// sniffing, no referrer to other sites.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: http: data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
        return response
    }
}

/// Finds out who is visiting from the session cookie (through the same use case as the API's
/// bearer token), gives a new browser its visitor secret, hands on the last request's flash
/// message, counts the member's unread notices for the header, and sets the reader's language
/// (`Reader.language`) for everything the request does.
struct VisitMiddleware<Context: RequestContext & RemoteAddressRequestContext>: RouterMiddleware {
    let library: Library
    let settings: WebSettings
    /// The header needs only the unread count, which every page of notices carries: one notice is read, not twenty.
    static var oneNotice: PageRequest { (try? PageRequest(limit: 1)) ?? .first }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The stylesheet and script are the same for everyone: no session is looked up for them.
        if request.uri.path.hasPrefix("/static/") { return try await next(request, context) }
        var visit = Visit()
        let peer = context.remoteAddress?.ipAddress
        let trusted = peer.map(settings.trustedProxies.contains) ?? false
        visit.secure = settings.secureCookies || (trusted && request.headers[.xForwardedProto]?.lowercased() == "https")
        visit.clientIP = trusted ? Self.forwardedClient(request, peer: peer, trusted: settings.trustedProxies) : peer
        visit.languages = request.headers[.acceptLanguage]
        visit.target = request.uri.path + (request.uri.query.map { "?\($0)" } ?? "")
        var cookies: [String] = []
        if let token = Cookies.value(Cookies.session, in: request) {
            if let principal = try? await library.accounts.authenticate.execute(token: token), case .user = principal {
                visit.principal = principal
                visit.secret = token
                visit.account = try? await library.accounts.showMe.execute(by: principal)
                visit.unread = (try? await library.circulation.notices.list(page: Self.oneNotice, by: principal).unread) ?? 0
            } else {
                cookies.append(Cookies.set(Cookies.session, "", maxAge: 0, secure: visit.secure))
            }
        }
        if visit.secret == nil {
            if let secret = Cookies.value(Cookies.visitor, in: request) {
                visit.secret = secret
            } else {
                let secret = FormToken.newSecret()
                visit.secret = secret
                cookies.append(Cookies.set(Cookies.visitor, secret, maxAge: nil, secure: visit.secure))
            }
        }
        if let flash = Cookies.value(Cookies.flash, in: request) {
            visit.flashRefused = flash.hasPrefix("!")
            visit.flash = visit.flashRefused ? String(flash.dropFirst()) : flash
        }
        visit.back = LanguageChoice.back(request, target: visit.target)
        let language = LanguageChoice.language(
            cookie: Cookies.value(Cookies.language, in: request), account: visit.account?.language, acceptLanguage: visit.languages)
        var response = try await Reader.$language.withValue(language) {
            try await Visit.$current.withValue(visit) { try await next(request, context) }
        }
        let setting = response.headers[values: .setCookie]
        if visit.flash != nil, !setting.contains(where: { $0.hasPrefix(Cookies.flash + "=") }) {
            cookies.append(Cookies.set(Cookies.flash, "", maxAge: 0, secure: visit.secure))
        }
        for cookie in cookies where !setting.contains(where: { $0.hasPrefix(cookie.prefix { $0 != "=" } + "=") }) {
            response.headers.append(.init(name: .setCookie, value: cookie))
        }
        return response
    }

    /// The right-most forwarded address that is not a trusted proxy.
    static func forwardedClient(_ request: Request, peer: String?, trusted: Set<String>) -> String? {
        guard let forwarded = request.headers[.xForwardedFor] else { return peer }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.last { !trusted.contains($0) } ?? peer
    }
}

/// Reads a POST's form, within the site's size limit, and refuses it without the form token of
/// this browser (403): every state-changing request is a POST and passes here.
struct FormMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBytes: Int
    static var fetchSite: HTTPField.Name { HTTPField.Name("Sec-Fetch-Site")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        // A form another site's page sent, as the browser says (`Sec-Fetch-Site`), is refused whatever
        // token it carries: a sibling site able to plant this site's visitor cookie knows that
        // cookie's token (found by an outside walk). Browsers that do not say it still need the token.
        if let site = request.headers[Self.fetchSite], site != "same-origin", site != "none" { throw PageError(.forbidden, .staleForm) }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else { throw PageError(.unsupportedMediaType, .notAForm) }
        var body = request
        let buffer: ByteBuffer
        do {
            buffer = try await body.collectBody(upTo: maxBytes)
        } catch {
            throw PageError(.contentTooLarge, .formTooLarge(max: maxBytes))
        }
        guard let form = Form.parse(String(buffer: buffer)) else { throw PageError(.badRequest, .notAForm) }
        guard FormToken.matches(form.raw("csrf"), secret: Visit.current.secret) else { throw PageError(.forbidden, .staleForm) }
        return try await Form.$current.withValue(form) { try await next(body, context) }
    }
}

/// Turns what a handler throws into a page: a login-required page redirects to the login form
/// and back, a refusal or a missing thing is an error page in words, a fault is logged and a 500.
struct PageErrors<Context: RequestContext>: RouterMiddleware {
    let pages: Pages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is LoginRequired {
            return Redirect.toLogin(from: request.method == .get ? Visit.current.target : nil)
        } catch is Unauthenticated {
            return Redirect.toLogin(from: request.method == .get ? Visit.current.target : nil)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            // No page is at this path (the router's own "not found"): said so, and marked so that the
            // composition may let the API answer a client that does not want HTML.
            var response = pages.render("error", PageError(.notFound, .noSuchPage).view, title: Words.heading(.notFound), status: .notFound)
            response.headers[.unrouted] = "1"
            return response
        } catch {
            let failure = PageError.of(error)
            if failure.status == .internalServerError {
                context.logger.error("page failed", metadata: ["path": "\(request.uri.path)", "error": "\(String(reflecting: error))"])
            }
            var response = pages.render("error", failure.view, title: failure.view.heading, status: failure.status)
            if let retry = failure.retryAfter { response.headers[.retryAfter] = String(retry) }
            if let allowance = failure.allowance { RateHeaders.set(allowance, on: &response.headers) }
            return response
        }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    /// Marks a page's "no such page" as the router's own, for `WebSite.isUnrouted`; never sent.
    static let unrouted = Self("X-Shelfmark-Unrouted")!
}

/// The library's request rates for the pages: a form sent is a change, the catalogue or Open
/// Library searched with a query is a search (`RatedRequest`); over the rate, a 429 page with
/// `Retry-After` and nothing done. Admitted answers say what is left (`RateLimit-*`).
struct PageRates<Context: RequestContext>: RouterMiddleware {
    let library: Library

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let kind = Self.kind(request, route: context.endpointPath) else { return try await next(request, context) }
        let visit = Visit.current
        let allowance = try library.rates.admit(kind, client: visit.clientIP, by: visit.principal)
        var response = try await next(request, context)
        if let allowance { RateHeaders.set(allowance, on: &response.headers) }
        return response
    }

    /// What a page request counts as, by the route it matched (`/books/` and `//books` are `/books`).
    static func kind(_ request: Request, route: String?) -> RatedRequest? {
        if request.method != .get, request.method != .head { return .write }
        let searched = ["/search", "/books"].contains(route ?? "") && request.uri.queryParameters["q"].map { !$0.isEmpty } == true
        return searched ? .search : nil
    }
}

/// The `RateLimit-*` headers of an answer (`RateAllowance.fields`).
enum RateHeaders {
    static func set(_ allowance: RateAllowance, on headers: inout HTTPFields) {
        for (name, value) in allowance.fields { HTTPField.Name(name).map { headers[$0] = value } }
    }
}
