import Application
import ArgumentParser
import Domain

/// `shelfmark compat ...`: what the old client apps need (librarians and the operator).
struct CompatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compat", abstract: t("cli.compat.abstract"),
        subcommands: [ProlificKey.self])

    /// `shelfmark compat prolific-key ...`.
    struct ProlificKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prolific-key",
            abstract: t("cli.compat.prolificKey.abstract"),
            discussion: t("cli.compat.prolificKey.discussion"),
            subcommands: [Create.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration.leaf(
                abstract: t("cli.compat.prolificKey.create.abstract"),
                discussion: t("cli.compat.prolificKey.create.discussion"))
            @OptionGroup(visibility: .hidden) var global: GlobalOptions
            @Option(name: .customLong("as"), help: ArgumentHelp(t("cli.compat.prolificKey.create.email"), valueName: "email")) var email:
                String

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
                abstract: t("cli.compat.prolificKey.revoke.abstract"),
                discussion: t("cli.compat.prolificKey.revoke.discussion"))
            @OptionGroup(visibility: .hidden) var global: GlobalOptions
            @Argument(help: ArgumentHelp(t("cli.compat.prolificKey.revoke.key"), valueName: "key")) var key: String

            func run() async throws {
                let library = try await global.library()
                let revoked = try await library.appKeys.revoke.execute(key: key, by: try await SavedSession.principal(library))
                if global.json { return try printJSON(["revoked": true]) }
                print(say(.prolificKeyRevoked(already: !revoked)))
            }
        }
    }
}
