import Application
import ArgumentParser
import Domain
import Foundation

extension AccountCommand {
    /// `shelfmark account close`: the logged-in member closes their own account.
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Close your account and erase your personal data. Asks first, or needs --yes.",
            discussion: """
                Your email, name, country, password hash and card number become unreadable everywhere, for good; \
                the address is free to register again. Refused while you have books on loan or wait for books. \
                With --json, prints nothing, as DELETE /api/v1/me answers 204.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Flag(help: "Confirm without being asked.") var yes = false

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
            abstract: "Close a member's account and erase their personal data. Asks first, or needs --yes.",
            discussion: """
                Refused while books are on loan to the member, while they wait for books, and for the last librarian. \
                With --json, prints nothing, as DELETE /api/v1/users/{idOrEmail} answers 204.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The account's email or id.", valueName: "email-or-id")) var email: String
        @Flag(help: "Confirm without being asked.") var yes = false

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
        guard readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() == "yes" else {
            throw InvalidInput([FieldError("--yes", .confirmationNeeded)])
        }
    }
}
