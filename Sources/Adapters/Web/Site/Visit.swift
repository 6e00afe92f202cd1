import Application
import Domain
import Foundation

/// Who is looking at a page, as the site's middleware found out from the request's cookies.
struct Visit: Sendable {
    /// The caller, as the use cases take it.
    var principal: Principal = .anonymous
    /// The account behind the session, for the page's header.
    var account: AccountSummary?
    /// The secret this browser holds (its session token, else its visitor cookie) that its forms' token is derived from.
    var secret: String?
    /// Notices not read yet.
    var unread = 0
    /// Whether the page was asked for over HTTPS (cookies are then `Secure`).
    var secure = false
    /// A message left by the previous request (POST/Redirect/GET).
    var flash: String?
    /// Whether that message is a refusal (shown as an alert).
    var flashRefused = false
    /// The path and query asked for, to come back to after logging in.
    var target = "/"
    /// The page the language switcher comes back to: this one, or after a form the page it was on.
    var back = "/"
    /// The client's address, as the login throttle counts it.
    var clientIP: String?
    /// The browser's `Accept-Language`.
    var languages: String?

    /// The visit of the request being answered.
    @TaskLocal static var current = Visit()

    /// The token every form of this page carries.
    var csrf: String { secret.map(FormToken.token(for:)) ?? "" }

    /// A logged-in member or librarian, else `LoginRequired` (a redirect to the login page).
    func requireUser() throws -> (UserID, Role) {
        guard case .user(let id, let role, _) = principal else { throw LoginRequired() }
        return (id, role)
    }

    /// Whether a librarian is looking.
    var isLibrarian: Bool {
        if case .user(_, .librarian, _) = principal { return true }
        return false
    }
}

/// A page needs a login: the visitor is sent to the login page, and back here afterwards.
struct LoginRequired: Error {}
