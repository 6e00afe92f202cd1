import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark user ...`: accounts, for librarians and the operator.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: t("cli.user.abstract"),
        subcommands: [List.self, Show.self, Add.self, Promote.self, Demote.self, IssueCards.self, Close.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.user.list.abstract"), discussion: t("cli.user.list.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @OptionGroup var paging: PagingOptions

        func run() async throws {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            let page = try await paging.fetch { try await library.accounts.listUsers.execute(page: $0, by: principal) }
            if global.json { return try printJSON(Components.Schemas.UserPage(page)) }
            guard !page.items.isEmpty else { return print(page.total == 0 ? say(.nothingListed(.accounts)) : page.footer) }
            printAccounts(page.items)
            print(page.footer)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.user.add.abstract"),
            discussion: t("cli.user.add.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.user.add.email"))) var email: String
        @Option(help: ArgumentHelp(t("cli.user.add.role"))) var role = "member"
        @Option(help: ArgumentHelp(t("cli.user.add.name"))) var name: String?
        @Option(help: ArgumentHelp(t("cli.user.add.country"))) var country = "FR"

        func validate() throws {
            guard Role(rawValue: role) != nil else { throw usage("--role", .notOneOf(Role.allCases.map(\.rawValue))) }
        }

        func run() async throws {
            let library = try await global.library()
            let form = SignupForm(email: email, password: try PasswordPrompt.new(), displayName: name, country: country)
            let created = try await library.accounts.signUp.execute(
                form, role: Role(rawValue: role) ?? .member, openSession: false, by: try await SavedSession.principal(library))
            if global.json { return try printJSON(Components.Schemas.User(created.account)) }
            print(say(.accountAdded(email: created.account.email.value)))
            printAccounts([created.account])
        }
    }

    struct Promote: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.user.promote.abstract"), discussion: t("cli.user.promote.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.user.promote.email"), valueName: "email-or-id")) var email: String
        func run() async throws { try await changeRole(email, to: .librarian, global) }
    }

    struct Demote: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.user.demote.abstract"),
            discussion: t("cli.user.demote.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.user.demote.email"), valueName: "email-or-id")) var email: String
        func run() async throws { try await changeRole(email, to: .member, global) }
    }
}

private func changeRole(_ email: String, to role: Role, _ global: GlobalOptions) async throws {
    let library = try await global.library()
    let principal = try await SavedSession.principal(library)
    let member = try await library.accounts.members.find(email, by: principal)
    let account = try await library.accounts.changeRole.execute(member, to: role, by: principal)
    if global.json { return try printJSON(Components.Schemas.User(account)) }
    print(say(.roleChanged(email: account.email.value, to: role)))
    printAccounts([account])
}

/// `shelfmark countries ...`.
struct CountriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countries", abstract: t("cli.countries.abstract"), subcommands: [List.self, Default.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.countries.list.abstract"),
            discussion: t("cli.countries.list.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @OptionGroup var paging: PagingOptions
        func run() async throws {
            let countries = try await global.library().accounts.countries
            let page = try await paging.fetch { try await countries.list(page: $0) }
            if global.json { return try printJSON(Components.Schemas.CountryPage(page)) }
            let header = [t("cli.column.code"), t("cli.column.name"), t("cli.column.frenchName")]
            print(table(header, page.items.map { [$0.code, $0.name, $0.frenchName ?? ""] }, maxWidth: 50))
            print(page.footer)
        }
    }

    struct Default: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.countries.default.abstract"),
            discussion:
                t("cli.countries.default.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.countries.default.ip"))) var ip: String?
        @Option(name: .customLong("accept-language"), help: ArgumentHelp(t("cli.countries.default.acceptLanguage"))) var acceptLanguage:
            String?
        func run() async throws {
            let country = try await global.library().accounts.countries.defaultCountry(clientIP: ip, acceptLanguage: acceptLanguage)
            if global.json { return try country.map { try printJSON(Components.Schemas.Country($0)) } ?? () }
            print(
                country.map { "\($0.code)  \(Speaking.language == .french ? $0.frenchName ?? $0.name : $0.name)" } ?? say(.noCountryFound))
        }
    }
}
