import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark user ...`: accounts, for librarians and the operator.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "List accounts, add one, promote or demote (librarians and the operator).",
        subcommands: [List.self, Add.self, Promote.self, Demote.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts by email.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Accounts per page (1-100).") var limit = 50
        @Option(help: "Accounts to skip.") var offset = 0

        func run() async throws {
            try await reportingFailures {
                let library = try await global.library()
                let page = try await library.accounts.listUsers.execute(
                    limit: limit, offset: offset, by: try await SavedSession.principal(library))
                if global.json { return try printJSON(page.items.map(AccountJSON.init)) }
                guard !page.items.isEmpty else { return print("No accounts.") }
                print(
                    table(
                        ["ID", "EMAIL", "NAME", "COUNTRY", "ROLE"],
                        page.items.map {
                            [$0.id.description, $0.email.value, $0.displayName, $0.country, $0.role.rawValue]
                        }))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account, e.g. the first librarian. The password comes from a prompt or standard input.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The email address.") var email: String
        @Option(help: "member or librarian.") var role = "member"
        @Option(help: "The display name.") var name: String?
        @Option(help: "ISO 3166-1 alpha-2 country code.") var country = "FR"

        func validate() throws {
            guard Role(rawValue: role) != nil else { throw ValidationError("--role must be member or librarian") }
        }

        func run() async throws {
            try await reportingFailures {
                let library = try await global.library()
                let form = SignupForm(email: email, password: try readPassword(), displayName: name, country: country)
                let created = try await library.accounts.signUp.execute(
                    form, role: Role(rawValue: role) ?? .member, openSession: false, by: try await SavedSession.principal(library))
                try printAccount(created.account, global, verb: "Added")
            }
        }
    }

    struct Promote: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account a librarian.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's email.") var email: String
        func run() async throws { try await changeRole(email, to: .librarian, global) }
    }

    struct Demote: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a librarian a member again.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's email.") var email: String
        func run() async throws { try await changeRole(email, to: .member, global) }
    }
}

private func changeRole(_ email: String, to role: Role, _ global: GlobalOptions) async throws {
    try await reportingFailures {
        let library = try await global.library()
        let principal = try await SavedSession.principal(library)
        let member = try await library.accounts.members.find(email, by: principal)
        let account = try await library.accounts.changeRole.execute(member, to: role, by: principal)
        try printAccount(account, global, verb: "\(account.email) is now a \(role.rawValue):")
    }
}

/// `shelfmark countries ...`.
struct CountriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countries", abstract: "The countries members sign up from.", subcommands: [List.self, Default.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every country with its code.")
        @OptionGroup var global: GlobalOptions
        func run() async throws {
            try await reportingFailures {
                let countries = try await global.library().accounts.countries.list()
                if global.json { return try printJSON(countries) }
                print(table(["CODE", "NAME", "FRENCH NAME"], countries.map { [$0.code, $0.name, $0.frenchName ?? ""] }, maxWidth: 50))
            }
        }
    }

    struct Default: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The country a signup form would preselect for an address.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The client's IP address.") var ip: String?
        @Option(name: .customLong("accept-language"), help: "An Accept-Language value, e.g. fr-CA,fr;q=0.8.") var acceptLanguage: String?
        func run() async throws {
            try await reportingFailures {
                let country = try await global.library().accounts.countries.defaultCountry(clientIP: ip, acceptLanguage: acceptLanguage)
                if global.json { return try printJSON(country) }
                print(country.map { "\($0.code)  \($0.name)" } ?? "Unknown.")
            }
        }
    }
}
