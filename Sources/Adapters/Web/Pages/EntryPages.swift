import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// The pages of someone arriving: the landing page, signing up, logging in and out, and setting a
/// new password with a reset code the desk gave.
struct EntryPages: Sendable {
    let site: Site

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/") { _, _ in try await landing() }
        router.get("/signup") { _, _ in try await signupForm() }
        router.post("/signup") { _, _ in try await signUp() }
        router.get("/login") { request, _ in loginForm(next: Form.query(of: request)["next"]) }
        router.post("/login") { _, _ in try await logIn() }
        router.post("/logout") { _, _ in try await logOut() }
        router.get("/password-reset") { _, _ in resetForm() }
        router.post("/password-reset") { _, _ in try await resetPassword() }
    }

    func landing() async throws -> Response {
        if site.visit.account != nil { return Redirect.see("/search") }
        let newest = try await site.library.catalogue.listBooks.execute(
            CatalogueQuery(sort: .newest), page: try PageRequest(limit: 6), by: site.visit.principal)
        return site.pages.render("landing", LandingView(newest: newest.items.map { BookCell($0) }), title: t("web.landing.title"))
    }

    func signupForm(_ feedback: Feedback = Feedback(), status: HTTPResponse.Status = .ok) async throws -> Response {
        if site.visit.account != nil { return Redirect.see("/search") }
        var chosen = feedback.values["country"]
        if chosen == nil {
            chosen = try? await site.library.accounts.countries.defaultCountry(
                clientIP: site.visit.clientIP, acceptLanguage: site.visit.languages)?.code
        }
        let options = Site.countryOptions(try await site.allCountries(), chosen: chosen)
        return site.pages.render(
            "signup", SignupView(feedback: feedback, countries: options), title: t("web.signup.heading"), status: status)
    }

    func signUp() async throws -> Response {
        let form = site.form
        let values = ["email": form["email"] ?? "", "displayName": form["displayName"] ?? "", "country": form["country"] ?? ""]
        // A member signing up on a page in another language than the library's own keeps it as their preference.
        let language = Reader.language == .standard ? nil : Reader.language.rawValue
        let signup = SignupForm(
            email: values["email"]!, password: form.raw("password") ?? "", displayName: form["displayName"], country: values["country"]!,
            language: language)
        do {
            let signed = try await site.library.accounts.signUp.execute(signup, client: site.visit.clientIP, by: .anonymous)
            guard let session = signed.session else { throw PageError(.internalServerError, message: Words.say(.serverFailed)) }
            return Redirect.see("/search", flash: t("web.signup.welcome", signed.account.displayName)).setting(
                cookie: site.sessionCookie(session))
        } catch {
            guard var feedback = Feedback(error, values: values) else { throw error }
            if error is EmailTaken || (error as? AccountRefused)?.rejection == .alreadyRegistered {
                feedback = Feedback(values: values)
                feedback.add("email", Words.say(error: error) ?? "")
            }
            return try await signupForm(feedback, status: PageError.of(error).status)
        }
    }

    func loginForm(next: String?, _ feedback: Feedback = Feedback(), status: HTTPResponse.Status = .ok) -> Response {
        if site.visit.account != nil { return Redirect.see(Redirect.local(next, or: "/search")) }
        return site.pages.render("login", LoginView(feedback: feedback, next: next ?? ""), title: t("web.login.heading"), status: status)
    }

    func logIn() async throws -> Response {
        let form = site.form
        let next = form["next"]
        do {
            let signed = try await site.library.accounts.logIn.execute(
                login: form["email"] ?? "", password: form.raw("password") ?? "", client: site.visit.clientIP)
            guard let session = signed.session else { throw PageError(.internalServerError, message: Words.say(.serverFailed)) }
            return Redirect.see(Redirect.local(next, or: "/search")).setting(cookie: site.sessionCookie(session))
        } catch {
            guard let feedback = Feedback(error, values: ["email": form["email"] ?? ""]) else { throw error }
            var response = loginForm(next: next, feedback, status: error is InvalidCredentials ? .unauthorized : PageError.of(error).status)
            if let retry = PageError.of(error).retryAfter { response.headers[.retryAfter] = String(retry) }
            return response
        }
    }

    func resetForm(_ feedback: Feedback = Feedback(), status: HTTPResponse.Status = .ok) -> Response {
        site.pages.render("reset", ResetView(feedback: feedback), title: t("web.reset.heading"), status: status)
    }

    /// The code's use as the API and the command line make it (`ResetPassword`): every refusal of a
    /// code says the same, and counts against the address as a failed login.
    func resetPassword() async throws -> Response {
        let form = site.form
        let values = ["email": form["email"] ?? "", "code": form["code"] ?? ""]
        do {
            try await site.library.accounts.passwords.reset.execute(
                email: values["email"]!, code: values["code"]!, newPassword: form.raw("new") ?? "", client: site.visit.clientIP,
                by: site.visit.principal)
            return Redirect.see("/login", flash: t("web.reset.done"))
        } catch {
            guard let feedback = Feedback(error, values: values, fieldNames: ["newPassword": "new"]) else { throw error }
            var response = resetForm(feedback, status: PageError.of(error).status)
            if let retry = PageError.of(error).retryAfter { response.headers[.retryAfter] = String(retry) }
            return response
        }
    }

    func logOut() async throws -> Response {
        if site.visit.account != nil {
            try await site.library.accounts.logOut.execute(everywhere: site.form["everywhere"] != nil, by: site.visit.principal)
        }
        return Redirect.see("/", flash: t("web.login.loggedOut")).setting(
            cookie: Cookies.set(Cookies.session, "", maxAge: 0, secure: site.visit.secure))
    }
}

struct LandingView: Sendable {
    let newest: [BookCell]
    let hasNewest: Bool
    init(newest: [BookCell]) {
        self.newest = newest
        hasNewest = !newest.isEmpty
    }
}

struct CountryOption: Sendable {
    let code: String
    let name: String
    let selected: Bool
}

struct SignupView: Sendable {
    let feedback: Feedback
    let countries: [CountryOption]
}

struct ResetView: Sendable {
    let feedback: Feedback
}

struct LoginView: Sendable {
    let feedback: Feedback
    let next: String
}
