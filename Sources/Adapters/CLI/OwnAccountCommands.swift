import APIContract
import Application
import ArgumentParser
import Domain

/// `shelfmark account ...`: the logged-in member's own account.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Your own account: show it, change your name, country, email or username, or close it.",
        subcommands: [Show.self, Edit.self, Card.self, Close.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Show the account the CLI is logged in as.", discussion: "With --json, prints what GET /api/v1/me answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions

        func run() async throws {
            let (library, principal) = try await global.acting()
            let account = try await library.accounts.showMe.execute(by: principal)
            if global.json { return try printJSON(Components.Schemas.User(account)) }
            printAccounts([account])
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Change your display name, country, email or username (any of them).",
            discussion: """
                A new email is checked and claimed as at signup, and the old one freed; log in with the new one from now on. \\
                With --json, prints what PATCH /api/v1/me answers.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: "The name shown to librarians.") var name: String?
        @Option(help: "ISO 3166-1 alpha-2 country code, e.g. FR (see `shelfmark countries list`).") var country: String?
        @Option(help: "Your new email address.") var email: String?
        @Option(help: "A login name for apps that log in with one (BitBooks); \"\" removes yours.") var username: String?

        func validate() throws {
            guard name != nil || country != nil || email != nil || username != nil else {
                throw usage(.atLeastOneOf(["--name", "--country", "--email", "--username"]))
            }
        }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let form = ProfileForm(displayName: name, country: country, email: email, username: username)
            let account = try await library.accounts.editProfile.execute(form, by: principal)
            if global.json { return try printJSON(Components.Schemas.User(account)) }
            print(say(.profileUpdated(email: account.email.value)))
            printAccounts([account])
        }
    }
}
