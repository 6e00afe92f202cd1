import Application
import ArgumentParser
import Domain

/// `shelfmark compat ...`: what the old client apps need (librarians and the operator).
struct CompatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compat", abstract: "Let old client apps in: keys for the Prolific catalogue apps (librarians and the operator).",
        subcommands: [ProlificKey.self])

    /// `shelfmark compat prolific-key ...`.
    struct ProlificKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prolific-key",
            abstract: "Make or revoke a key for the Prolific apps: their base URL is /KEY/ on `shelfmark serve`'s address.",
            discussion: """
                A key is 24 lower-case hex characters. Every request under /KEY/ acts as the librarian the key was made for \
                (the log records that librarian), as long as the account stays a librarian's. Only the key's digest is stored: \
                keep the key printed by `create`, it is shown once. `serve` answers under /KEY/ while a key exists \
                (or always, with `serve --prolific`).
                """,
            subcommands: [Create.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration.leaf(
                abstract: "Make a key acting as a librarian and print it, with the base URL the apps use.",
                discussion: "No API twin; with --json, prints {\"key\": KEY, \"baseURL\": \"/KEY/\"}.")
            @OptionGroup(visibility: .hidden) var global: GlobalOptions
            @Option(name: .customLong("as"), help: ArgumentHelp("The librarian's email address.", valueName: "email")) var email: String

            func run() async throws {
                let library = try await global.library()
                let principal = try await SavedSession.principal(library)
                let issued = try await library.appKeys.issue.execute(forEmail: email, by: principal)
                if global.json { return try printJSON(["key": issued.key, "baseURL": "/\(issued.key)/"]) }
                print(say(.prolificKeyCreated(key: issued.key, email: email)))
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration.leaf(
                abstract: "End a key: requests under /KEY/ get 404 from then on.",
                discussion: "No API twin; with --json, prints {\"revoked\": true}.")
            @OptionGroup(visibility: .hidden) var global: GlobalOptions
            @Argument(help: ArgumentHelp("The key, as `create` printed it.", valueName: "key")) var key: String

            func run() async throws {
                let library = try await global.library()
                let revoked = try await library.appKeys.revoke.execute(key: key, by: try await SavedSession.principal(library))
                if global.json { return try printJSON(["revoked": true]) }
                print(say(.prolificKeyRevoked(already: !revoked)))
            }
        }
    }
}
