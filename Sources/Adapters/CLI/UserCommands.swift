import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark user ...`: accounts, for librarians and the operator.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "List accounts, add one, promote or demote (librarians and the operator).",
        subcommands: [List.self, Show.self, Add.self, Promote.self, Demote.self, IssueCards.self, Close.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "List accounts by email, a page at a time.", discussion: "With --json, prints what GET /api/v1/users answers.")
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
            abstract: "Create an account, e.g. the first librarian. The password comes from a prompt or standard input.",
            discussion: "No API twin (the API's signup makes members only); with --json, prints the account as the API shows one.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: "The email address.") var email: String
        @Option(help: "member or librarian.") var role = "member"
        @Option(help: "The display name (default: the part of the email before @).") var name: String?
        @Option(help: "ISO 3166-1 alpha-2 country code.") var country = "FR"

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
            abstract: "Make an account a librarian.", discussion: "With --json, prints what POST /api/v1/users/{idOrEmail}/role answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The account's email or id.", valueName: "email-or-id")) var email: String
        func run() async throws { try await changeRole(email, to: .librarian, global) }
    }

    struct Demote: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Make a librarian a member again.",
            discussion: "With --json, prints what POST /api/v1/users/{idOrEmail}/role answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The account's email or id.", valueName: "email-or-id")) var email: String
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
        commandName: "countries", abstract: "The countries members sign up from.", subcommands: [List.self, Default.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "List the countries with their codes, a page at a time (--all: every one).",
            discussion: "With --json, prints what GET /api/v1/countries answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @OptionGroup var paging: PagingOptions
        func run() async throws {
            let countries = try await global.library().accounts.countries
            let page = try await paging.fetch { try await countries.list(page: $0) }
            if global.json { return try printJSON(Components.Schemas.CountryPage(page)) }
            print(table(["CODE", "NAME", "FRENCH NAME"], page.items.map { [$0.code, $0.name, $0.frenchName ?? ""] }, maxWidth: 50))
            print(page.footer)
        }
    }

    struct Default: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "The country a signup form would preselect for an address.",
            discussion:
                "With --json, prints what GET /api/v1/countries/default answers: the country, or nothing (204) when none can be told.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: "The client's IP address.") var ip: String?
        @Option(name: .customLong("accept-language"), help: "An Accept-Language value, e.g. fr-CA,fr;q=0.8.") var acceptLanguage: String?
        func run() async throws {
            let country = try await global.library().accounts.countries.defaultCountry(clientIP: ip, acceptLanguage: acceptLanguage)
            if global.json { return try country.map { try printJSON(Components.Schemas.Country($0)) } ?? () }
            print(country.map { "\($0.code)  \($0.name)" } ?? say(.noCountryFound))
        }
    }
}
