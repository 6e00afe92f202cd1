import Application
import ArgumentParser
import Domain
import Foundation

struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create a member account and log in as it.",
        discussion: "The password is prompted without echo on a terminal, or read from the first line of standard input.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Your email address.") var email: String
    @Option(help: "The name shown to librarians (default: the part of the email before @).") var name: String?
    @Option(help: "ISO 3166-1 alpha-2 country code, e.g. FR (see `shelfmark countries list`).") var country: String

    func run() async throws {
        try await reportingFailures {
            let library = try await global.library()
            let form = SignupForm(email: email, password: try readPassword(), displayName: name, country: country)
            let signedIn = try await library.accounts.signUp.execute(form, by: try await SavedSession.principal(library))
            if let session = signedIn.session { try SavedSession.save(session.token) }
            try printAccount(signedIn.account, global, verb: "Signed up and logged in as")
        }
    }
}

struct LogInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in; later commands run as you until `shelfmark logout`.",
        discussion: "The password is prompted without echo on a terminal, or read from the first line of standard input.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Your email address.") var email: String

    func run() async throws {
        try await reportingFailures {
            let library = try await global.library()
            let signedIn = try await library.accounts.logIn.execute(email: email, password: try readPassword())
            if let session = signedIn.session { try SavedSession.save(session.token) }
            try printAccount(signedIn.account, global, verb: "Logged in as")
        }
    }
}

struct LogOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out and forget the saved session.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Log out every session of this account, on every device.") var everywhere = false

    func run() async throws {
        try await reportingFailures {
            defer { SavedSession.forget() }
            guard SavedSession.token() != nil else { return print("Not logged in.") }
            let library = try await global.library()
            if case .user = try? await SavedSession.principal(library) {
                try await library.accounts.logOut.execute(everywhere: everywhere, by: try await SavedSession.principal(library))
            }
            print("Logged out.")
        }
    }
}

struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who the CLI acts as.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingFailures {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            guard case .user = principal else {
                return global.json ? try printJSON(["role": "operator"]) : print("The operator of this database (not logged in).")
            }
            try printAccount(try await library.accounts.showMe.execute(by: principal), global, verb: nil)
        }
    }
}

/// Prints one account as JSON or lines.
func printAccount(_ a: AccountSummary, _ global: GlobalOptions, verb: String?) throws {
    if global.json { return try printJSON(AccountJSON(a)) }
    if let verb { print("\(verb) \(a.email)") }
    print(
        table(["ID", "EMAIL", "NAME", "COUNTRY", "ROLE"], [[a.id.description, a.email.value, a.displayName, a.country, a.role.rawValue]]))
}

struct AccountJSON: Encodable {
    let id: String, email: String, displayName: String, country: String, role: String, registeredAt: Date
    init(_ a: AccountSummary) {
        id = a.id.description
        email = a.email.value
        displayName = a.displayName
        country = a.country
        role = a.role.rawValue
        registeredAt = a.registeredAt
    }
}
