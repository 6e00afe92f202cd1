import APIContract
import Application
import ArgumentParser
import Domain

/// `shelfmark account ...`: the logged-in member's own account.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: t("cli.account.abstract"),
        subcommands: [Show.self, Edit.self, Card.self, Close.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.account.show.abstract"), discussion: t("cli.account.show.discussion"))
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
            abstract: t("cli.account.edit.abstract"),
            discussion: t("cli.account.edit.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.account.edit.name"))) var name: String?
        @Option(help: ArgumentHelp(t("cli.account.edit.country"))) var country: String?
        @Option(help: ArgumentHelp(t("cli.account.edit.email"))) var email: String?
        @Option(help: ArgumentHelp(t("cli.account.edit.username"))) var username: String?
        @Option(help: ArgumentHelp(t("cli.account.edit.language"))) var language: String?

        func validate() throws {
            guard name != nil || country != nil || email != nil || username != nil || language != nil else {
                throw usage(.atLeastOneOf(["--name", "--country", "--email", "--username", "--language"]))
            }
        }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let form = ProfileForm(displayName: name, country: country, email: email, username: username, language: language)
            let account = try await library.accounts.editProfile.execute(form, by: principal)
            if global.json { return try printJSON(Components.Schemas.User(account)) }
            print(say(.profileUpdated(email: account.email.value)))
            printAccounts([account])
        }
    }
}
