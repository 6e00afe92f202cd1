import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark password ...`: change your own password, issue a reset code, reset with one.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: t("cli.password.abstract"),
        subcommands: [Change.self, IssueCode.self, Reset.self])

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.password.change.abstract"),
            discussion: t("cli.password.change.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions

        func run() async throws {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            try Authorization.require(.changeOwnPassword, by: principal)  // before any password is typed
            let current = try PasswordPrompt.existing(t("cli.prompt.currentPassword"), field: "currentPassword")
            let new = try PasswordPrompt.new(field: "newPassword")
            let ended = try await library.accounts.passwords.change.execute(current: current, new: new, by: principal)
            if !global.json { print(say(.passwordChanged(sessionsEnded: ended))) }
        }
    }

    struct IssueCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            "reset-code", abstract: t("cli.password.resetCode.abstract"),
            discussion: t("cli.password.resetCode.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.password.resetCode.email"), valueName: "email")) var email: String

        func run() async throws {
            let library = try await global.library()
            let issued = try await library.accounts.passwords.issueResetCode.execute(email, by: try await SavedSession.principal(library))
            if global.json { return try printJSON(Components.Schemas.ResetCode(issued)) }
            print(say(.resetCodeIssued(email: issued.account.email.value, code: issued.code, until: issued.expiresAt)))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.password.reset.abstract"),
            discussion: t("cli.password.reset.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.password.reset.email"))) var email: String
        @Option(help: ArgumentHelp(t("cli.password.reset.code"))) var code: String

        func run() async throws {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            let new = try PasswordPrompt.new(field: "newPassword")
            try await library.accounts.passwords.reset.execute(email: email, code: code, newPassword: new, by: principal)
            if !global.json { print(say(.passwordReset(email: (try? EmailAddress(parsing: email))?.value ?? email))) }
        }
    }
}
