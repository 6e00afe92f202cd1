import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration.leaf(
        "signup", abstract: "Create a member account (--login: and act as it from now on).",
        discussion: """
            The password is prompted without echo on a terminal, or read from the first line of standard input. \
            Without --login the CLI goes on acting as before (its saved login, or the operator). \
            With --json, prints what POST /api/v1/users answers, the session's token included (saved only with --login).
            """)

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: "Your email address.") var email: String
    @Option(help: "The name shown to librarians (default: the part of the email before @).") var name: String?
    @Option(help: "ISO 3166-1 alpha-2 country code, e.g. FR (see `shelfmark countries list`).") var country: String
    @Option(help: "An optional login name, for apps that log in with one (BitBooks): 3 to 32 letters, digits, . - _")
    var username: String?
    @Flag(help: "Log in as the new account: later commands run as it until `shelfmark logout`.") var login = false

    func run() async throws {
        let library = try await global.library()
        let actor = try await SavedSession.actor(library)
        let form = SignupForm(email: email, password: try PasswordPrompt.new(), displayName: name, country: country, username: username)
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
        "login", abstract: "Log in; later commands run as you until `shelfmark logout`.",
        discussion: """
            The password is prompted without echo on a terminal, or read from the first line of standard input. \
            With --json, prints what POST /api/v1/sessions answers, the session's token included.
            """)

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Option(help: "Your email address.") var email: String?
    @Option(help: "Or the login name you chose (`shelfmark account edit --username`).") var username: String?

    func validate() throws {
        guard (email == nil) != (username == nil) else { throw usage(.exactlyOneOf(["--email", "--username"])) }
    }

    func run() async throws {
        let library = try await global.library()
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
        "logout", abstract: "Log out and forget the saved session.",
        discussion: "With --json, prints nothing, as the API answers 204.")

    @OptionGroup(visibility: .hidden) var global: GlobalOptions
    @Flag(help: "Log out every session of this account, on every device.") var everywhere = false

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
        "whoami", abstract: "Show who the CLI acts as, and how to switch.",
        discussion: "With --json, prints what GET /api/v1/me answers; the operator, who has no account, is {\"role\": \"operator\"}.")

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

/// Accounts as a table.
func printAccounts(_ accounts: [AccountSummary]) {
    print(
        table(
            ["ID", "EMAIL", "NAME", "COUNTRY", "ROLE", "CARD", "REGISTERED"],
            accounts.map {
                [
                    $0.id.description, $0.email.value, $0.displayName, $0.country, $0.role.rawValue, $0.cardNumber?.grouped ?? "-",
                    TableDates.day($0.registeredAt),
                ]
            }))
}
