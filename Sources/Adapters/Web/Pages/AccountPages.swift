import Application
import Domain
import Foundation
import Hummingbird
import Wording

/// The account: profile (email, name, country), the library card and its barcode, the password,
/// logging out here or everywhere, and closing the account.
struct AccountPages: Sendable {
    let site: Site
    /// What a member types to confirm closing their account, in the reader's language ("CLOSE", "FERMER").
    static var closeWord: String { t("web.account.closeWord") }

    /// Whether `typed` is the confirmation word of any language (the page may have been read in another).
    static func confirms(_ typed: String?) -> Bool {
        guard let typed = typed?.uppercased() else { return false }
        return Language.allCases.contains { pageTexts.template("web.account.closeWord", in: $0) == typed }
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/account") { _, _ in try await account() }
        router.post("/account") { _, _ in try await editProfile() }
        router.get("/account/card.svg") { _, _ in try await cardImage() }
        router.post("/account/password") { _, _ in try await changePassword() }
        router.post("/account/close") { _, _ in try await close() }
    }

    func account(_ forms: AccountForms = AccountForms(), status: HTTPResponse.Status = .ok) async throws -> Response {
        _ = try site.visit.requireUser()
        let me = try await site.library.accounts.showMe.execute(by: site.visit.principal)
        let countries = try await site.allCountries()
        let chosen = forms.profile.feedback.values["country"] ?? me.country
        let language = forms.profile.feedback.values["language"] ?? (me.language ?? Reader.language).rawValue
        let view = AccountView(
            me, countries: Site.countryOptions(countries, chosen: chosen),
            languages: Language.allCases.map { LanguageOption($0, selected: $0.rawValue == language) },
            countryName: countries.first { $0.code == me.country }.map(Site.name(of:)) ?? me.country, forms: forms)
        return site.pages.render("account", view, title: t("web.account.heading"), status: status)
    }

    func editProfile() async throws -> Response {
        _ = try site.visit.requireUser()
        let form = site.form
        func typed(_ name: String) -> String? { form.raw(name).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }
        let profile = ProfileForm(
            displayName: typed("displayName"), country: typed("country"), email: typed("email"), username: typed("username"),
            language: form["language"])
        do {
            let account = try await site.library.accounts.editProfile.execute(profile, by: site.visit.principal)
            // The page that follows is in the language just saved: the switcher's cookie, which comes first, says so too.
            let language = account.language ?? Reader.language
            let saved = Reader.$language.withValue(language) { Words.say(.profileUpdated(email: account.email.description)) }
            var response = Redirect.see("/account", flash: saved)
            if let chosen = account.language {
                response = response.setting(cookie: LanguageChoice.cookie(chosen, secure: site.visit.secure))
            }
            return response
        } catch {
            let values = [
                "displayName": typed("displayName") ?? "", "email": typed("email") ?? "", "country": typed("country") ?? "",
                "username": typed("username") ?? "", "language": form["language"] ?? "",
            ]
            guard var feedback = Feedback(error, values: values) else { throw error }
            if error is EmailTaken || error is UsernameTaken {
                feedback = Feedback(values: values)
                feedback.add(error is EmailTaken ? "email" : "username", Words.say(error: error) ?? "")
            }
            return try await account(AccountForms(profile: feedback), status: PageError.of(error).status)
        }
    }

    func cardImage() async throws -> Response {
        _ = try site.visit.requireUser()
        let (_, card) = try await site.library.desk.myCard.execute(by: site.visit.principal)
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(string: CardImage.svg(card))))
    }

    /// The session asking stays logged in (the use case keeps it); every other one ends.
    func changePassword() async throws -> Response {
        _ = try site.visit.requireUser()
        let form = site.form
        do {
            let ended = try await site.library.accounts.passwords.change.execute(
                current: form.raw("current") ?? "", new: form.raw("new") ?? "", client: site.visit.clientIP, by: site.visit.principal)
            return Redirect.see("/account", flash: Words.say(.passwordChanged(sessionsEnded: ended)))
        } catch {
            guard var feedback = Feedback(error, values: [:], fieldNames: ["newPassword": "new", "currentPassword": "current"]) else {
                throw error
            }
            if error is WrongPassword {
                feedback = Feedback()
                feedback.add("current", Words.say(error: error) ?? "")
            }
            var response = try await account(AccountForms(password: feedback), status: PageError.of(error).status)
            if let retry = PageError.of(error).retryAfter { response.headers[.retryAfter] = String(retry) }
            return response
        }
    }

    /// Closes the account once its owner typed the confirmation; the browser is logged out and lands on the home page.
    func close() async throws -> Response {
        _ = try site.visit.requireUser()
        guard Self.confirms(site.form["confirm"]) else {
            var feedback = Feedback()
            feedback.add("confirm", t("web.account.closeConfirm", Self.closeWord))
            return try await account(AccountForms(closing: feedback), status: .badRequest)
        }
        let me = try await site.library.accounts.showMe.execute(by: site.visit.principal)
        do {
            try await site.library.accounts.closeAccount.own(by: site.visit.principal)
        } catch {
            guard let feedback = Feedback(error, values: [:]) else { throw error }
            return try await account(AccountForms(closing: feedback), status: PageError.of(error).status)
        }
        return Redirect.see("/", flash: Words.say(.accountClosed(email: me.email.description))).setting(
            cookie: Cookies.set(Cookies.session, "", maxAge: 0, secure: site.visit.secure))
    }
}

/// The feedback of each form of the account page (one of them refused at most).
struct AccountForms: Sendable {
    var profile = FormPart()
    var password = FormPart()
    var closing = FormPart()

    init(profile: Feedback = Feedback(), password: Feedback = Feedback(), closing: Feedback = Feedback()) {
        self.profile = FormPart(feedback: profile)
        self.password = FormPart(feedback: password)
        self.closing = FormPart(feedback: closing)
    }
}

/// One form's feedback, so the `feedback` partial can be used for each form of a page.
struct FormPart: Sendable {
    var feedback = Feedback()
}

struct AccountView: Sendable {
    let email: String
    let displayName: String
    /// The login name, or "none" when the member has not chosen one.
    let username: String
    let country: String
    let countryName: String
    let role: String
    let since: String
    /// "Member since November 22, 2026".
    let roleSince: String
    /// The language the member chose, or what the pages are read in until they choose.
    let languageName: String
    let languages: [LanguageOption]
    let card: String?
    let cardAlt: String?
    let countries: [CountryOption]
    /// The profile form's values: as typed after a refusal, else the account's.
    let typedEmail: String
    let typedName: String
    let typedUsername: String
    let forms: AccountForms
    let closeWord: String
    /// "Type CLOSE to confirm".
    let closeLabel: String

    init(
        _ account: AccountSummary, countries: [CountryOption], languages: [LanguageOption], countryName: String, forms: AccountForms
    ) {
        email = account.email.description
        displayName = account.displayName
        username = account.username?.value ?? t("web.account.noUsername")
        country = account.country
        self.countryName = countryName
        role = account.role == .librarian ? t("web.account.librarian") : t("web.account.member")
        since = Dates.day(account.registeredAt)
        roleSince = account.role == .librarian ? t("web.account.librarianSince", since) : t("web.account.memberSince", since)
        languageName = account.language.map(LanguageOption.name) ?? t("web.account.noLanguage")
        self.languages = languages
        card = account.cardNumber?.grouped
        cardAlt = account.cardNumber.map { t("web.account.barcodeOf", $0.grouped) }
        self.countries = countries
        typedEmail = forms.profile.feedback.values["email"] ?? email
        typedName = forms.profile.feedback.values["displayName"] ?? displayName
        typedUsername = forms.profile.feedback.values["username"] ?? account.username?.value ?? ""
        self.forms = forms
        closeWord = AccountPages.closeWord
        closeLabel = t("web.account.closeLabel", closeWord)
    }
}
