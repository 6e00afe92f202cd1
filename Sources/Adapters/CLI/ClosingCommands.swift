import Application
import ArgumentParser
import Domain
import Foundation

extension AccountCommand {
    /// `shelfmark account close`: the logged-in member closes their own account.
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.account.close.abstract"),
            discussion: t("cli.account.close.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Flag(help: ArgumentHelp(t("cli.account.close.yes"))) var yes = false

        func run() async throws {
            let (library, principal) = try await global.acting()
            let account = try await library.accounts.showMe.execute(by: principal)
            try ClosingConfirmation.ask(account, yes: yes)
            try await library.accounts.closeAccount.own(by: principal)
            SavedSession.forget()
            if !global.json { print(say(.accountClosed(email: account.email.value))) }
        }
    }
}

extension UserCommand {
    /// `shelfmark user close EMAIL`: a librarian (or the operator) closes a member's account.
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.user.close.abstract"),
            discussion: t("cli.user.close.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.user.close.email"), valueName: "email-or-id")) var email: String
        @Flag(help: ArgumentHelp(t("cli.user.close.yes"))) var yes = false

        func run() async throws {
            let library = try await global.library()
            let principal = try await SavedSession.principal(library)
            let member = try await library.accounts.members.find(email, by: principal)
            let account = try await library.accounts.closeAccount.account(member, by: principal)
            try ClosingConfirmation.ask(account, yes: yes)
            try await library.accounts.closeAccount.member(member, by: principal)
            if case .user(let id, _, _) = principal, id == member { SavedSession.forget() }
            if !global.json { print(say(.accountClosed(email: account.email.value))) }
        }
    }
}

/// Closing erases for good: on a terminal the command asks, naming the account; elsewhere (a
/// script) it needs --yes.
enum ClosingConfirmation {
    static func ask(_ account: AccountSummary, yes: Bool) throws {
        if yes { return }
        guard PasswordPrompt.onTerminal else { throw InvalidInput([FieldError("--yes", .confirmationNeeded)]) }
        FileHandle.standardError.write(Data(say(.confirmClosing(name: account.displayName, email: account.email.value)).utf8))
        let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
        guard let answer, ["yes", t("cli.confirm.yes")].contains(answer) else {
            throw InvalidInput([FieldError("--yes", .confirmationNeeded)])
        }
    }
}
