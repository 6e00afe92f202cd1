import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark password ...`: change your own password, issue a reset code, reset with one.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: "Change your password; reset a forgotten one with a code from a librarian.",
        subcommands: [Change.self, IssueCode.self, Reset.self])

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Change the password of the account you are logged in as; your other sessions are logged out.",
            discussion: """
                Prompts for the current password, then the new one twice, without echo on a terminal; otherwise reads \
                the current and the new password from the first two lines of standard input. With --json, prints \
                nothing, as POST /api/v1/me/password answers 204.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions

        func run() async throws {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            try Authorization.require(.changeOwnPassword, by: principal)  // before any password is typed
            let current = try PasswordPrompt.existing("Current password: ", field: "currentPassword")
            let new = try PasswordPrompt.new(field: "newPassword")
            let ended = try await library.accounts.passwords.change.execute(current: current, new: new, by: principal)
            if !global.json { print(say(.passwordChanged(sessionsEnded: ended))) }
        }
    }

    struct IssueCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            "reset-code", abstract: "Issue a one-time reset code for a member who forgot their password (librarians and the operator).",
            discussion: """
                Prints the code once, with when it stops working (24 hours from now); the library keeps only its digest. \
                A new code replaces an older unused one. With --json, prints what POST /api/v1/users/{idOrEmail}/reset-code answers.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The account's email (or id).", valueName: "email")) var email: String

        func run() async throws {
            let library = try await global.library()
            let issued = try await library.accounts.passwords.issueResetCode.execute(email, by: try await SavedSession.principal(library))
            if global.json { return try printJSON(Components.Schemas.ResetCode(issued)) }
            print(say(.resetCodeIssued(email: issued.account.email.value, code: issued.code, until: issued.expiresAt)))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Set a new password with a reset code from a librarian; every session of the account is logged out.",
            discussion: """
                Prompts for the new password twice, without echo, on a terminal; otherwise reads it from the first line \
                of standard input. With --json, prints nothing, as POST /api/v1/password-resets answers 204.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: "The account's email address.") var email: String
        @Option(help: "The reset code, as the librarian gave it (case and hyphens do not matter).") var code: String

        func run() async throws {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            let new = try PasswordPrompt.new(field: "newPassword")
            try await library.accounts.passwords.reset.execute(email: email, code: code, newPassword: new, by: principal)
            if !global.json { print(say(.passwordReset(email: (try? EmailAddress(parsing: email))?.value ?? email))) }
        }
    }
}
