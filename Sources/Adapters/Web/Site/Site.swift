import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// What every page handler needs: the use cases, the templates and the site's settings.
struct Site: Sendable {
    let library: Library
    let pages: Pages
    let settings: WebSettings

    /// The visit of the request being answered.
    var visit: Visit { Visit.current }

    /// The form of the request being answered.
    var form: Form { Form.current }

    /// Every country, for pickers (the directory pages them by 100).
    func allCountries() async throws -> [Country] {
        var countries: [Country] = []
        var offset: Int? = 0
        while let next = offset {
            let page = try await library.accounts.countries.list(page: try PageRequest(limit: PageRequest.maxLimit, offset: next))
            countries += page.items
            offset = page.nextOffset
        }
        return countries
    }

    /// Every country as a picker offers it: named and ordered in the reader's language, `chosen` selected.
    static func countryOptions(_ countries: [Country], chosen: String?) -> [CountryOption] {
        countries.map { CountryOption(code: $0.code, name: Self.name(of: $0), selected: $0.code == chosen) }
            .sorted { $0.name.compare($1.name, locale: Reader.language.locale) == .orderedAscending }
    }

    /// A country's name in the reader's language (its English name when the directory has no other).
    static func name(of country: Country) -> String { Reader.language == .french ? country.frenchName ?? country.name : country.name }

    /// The session cookie for a new session.
    /// It lasts as long as the session (the browser keeps it when closed); the server refuses it after that anyway.
    func sessionCookie(_ session: SignedIn.Session) -> String {
        Cookies.set(Cookies.session, session.token, maxAge: Int(settings.sessionLifetime), secure: visit.secure)
    }
}

extension Response {
    /// The response with one more `Set-Cookie`.
    func setting(cookie: String) -> Response {
        var response = self
        response.headers.append(.init(name: .setCookie, value: cookie))
        return response
    }
}
