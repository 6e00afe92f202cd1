import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "signup", abstract: t("cli.signup.abstract"),
        discussion: t("cli.signup.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp(t("cli.signup.email"))) var email: String
    @Option(help: ArgumentHelp(t("cli.signup.name"))) var name: String?
    @Option(help: ArgumentHelp(t("cli.signup.country"))) var country: String
    @Option(help: ArgumentHelp(t("cli.signup.username")))
    var username: String?
    @Option(help: ArgumentHelp(t("cli.signup.language"))) var language: String?
    @Flag(help: ArgumentHelp(t("cli.signup.login"))) var login = false

    func run() async throws {
        if login { try SavedSession.prepareFolder() }
        let library = try await global.library()
        if login { try library.backUp.refuseOwnFile(SavedSession.url.path) }
        let actor = try await SavedSession.actor(library)
        let form = SignupForm(
            email: email, password: try PasswordPrompt.new(), displayName: name, country: country, username: username, language: language)
        // A session is opened when it is saved, or shown as the API shows it (--json).
        let signedIn = try await library.accounts.signUp.execute(
            form, openSession: login || global.json, by: try await SavedSession.principal(library))
        if login, let session = signedIn.session { try SavedSession.save(session.token) }
        if global.json { return try printJSON(try await signedInAnswer(signedIn, library)) }
        print(say(.signedUp(email: signedIn.account.email.value, stillActingAs: login ? nil : actor)))
        printAccounts([signedIn.account])
    }
}

struct LogInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "login", abstract: t("cli.login.abstract"),
        discussion: t("cli.login.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: ArgumentHelp(t("cli.login.email"))) var email: String?
    @Option(help: ArgumentHelp(t("cli.login.username"))) var username: String?

    func validate() throws {
        guard (email == nil) != (username == nil) else { throw usage(.exactlyOneOf(["--email", "--username"])) }
    }

    func run() async throws {
        try SavedSession.prepareFolder()
        let library = try await global.library()
        try library.backUp.refuseOwnFile(SavedSession.url.path)  // a session saved over the library would be its end
        let login = email ?? username ?? ""
        let signedIn = try await library.accounts.logIn.execute(login: login, password: try PasswordPrompt.existing())
        if let session = signedIn.session { try SavedSession.save(session.token) }
        if global.json { return try printJSON(try await signedInAnswer(signedIn, library)) }
        print(say(.loggedIn(email: signedIn.account.email.value)))
        printAccounts([signedIn.account])
    }
}

struct LogOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "logout", abstract: t("cli.logout.abstract"),
        discussion: t("cli.logout.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Flag(help: ArgumentHelp(t("cli.logout.everywhere"))) var everywhere = false

    func run() async throws {
        defer { SavedSession.forget() }
        guard SavedSession.token() != nil else { return global.json ? () : print(say(.notLoggedIn)) }
        let library = try await global.library()
        if case .user = try? await SavedSession.principal(library) {
            try await library.accounts.logOut.execute(everywhere: everywhere, by: try await SavedSession.principal(library))
        }
        if !global.json { print(say(.loggedOut)) }
    }
}

struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "whoami", abstract: t("cli.whoami.abstract"),
        discussion: t("cli.whoami.discussion"))

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        let library = try await global.library()
        let principal = try await SavedSession.principal(library)
        guard case .user = principal else {
            return global.json ? try printJSON(["role": "operator"]) : print(say(.actingAs(.cliOperator)))
        }
        let account = try await library.accounts.showMe.execute(by: principal)
        if global.json { return try printJSON(Components.Schemas.User(account)) }
        print(say(.actingAs(.member(MemberName(account), account.role))))
        printAccounts([account])
    }
}

/// The answer to a signup or login, as the API gives it: the account, the token, the notices.
func signedInAnswer(_ signedIn: SignedIn, _ library: Library) async throws -> Components.Schemas.SignedIn {
    guard let session = signedIn.session else { throw Unauthenticated() }
    let principal = Principal.user(signedIn.account.id, signedIn.account.role, session.id)
    let notices = try await library.circulation.notices.list(
        page: try PageRequest(limit: Components.Schemas.SignedIn.noticesShown), by: principal)
    return .init(signedIn.account, session: session, notices: notices)
}

/// A role as a person reads it (the option's values stay `member` and `librarian`).
func roleName(_ role: Role) -> String {
    switch role {
    case .member: t("cli.role.member")
    case .librarian: t("cli.role.librarian")
    }
}

/// Accounts as a table.
func printAccounts(_ accounts: [AccountSummary]) {
    print(
        table(
            [
                t("cli.column.id"), t("cli.column.email"), t("cli.column.name"), t("cli.column.country"), t("cli.column.role"),
                t("cli.column.card"), t("cli.column.language"), t("cli.column.registered"),
            ],
            accounts.map {
                [
                    $0.id.description, $0.email.value, $0.displayName, $0.country, roleName($0.role), $0.cardNumber?.grouped ?? "-",
                    $0.language?.rawValue ?? "-",
                    TableDates.day($0.registeredAt),
                ]
            }))
}
