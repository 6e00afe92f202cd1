import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark desk ...`: the front desk, for librarians and the operator.
struct DeskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desk", abstract: "The front desk (librarians): lend to a member found by library card or email.",
        discussion:
            "Returns at the desk are `shelfmark loan return LOAN`; walk-in borrowers without an account: `shelfmark loan checkout`.",
        subcommands: [Lend.self])

    struct Lend: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Lend books to a member, by card number or email: the member's own rules, all of the books or none.",
            discussion:
                "The log records the loans as the librarian's doing, for the member. With --json, prints what POST /api/v1/desk/loans answers."
        )
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("The member's library card number (10 digits; spaces allowed).", valueName: "number")) var card: String?
        @Option(help: ArgumentHelp("The member's email address.", valueName: "address")) var email: String?
        @Argument(help: ArgumentHelp("The books to lend.", valueName: "book-id")) var bookIDs: [String] = []

        func validate() throws {
            if (card == nil) == (email == nil) { throw usage(.exactlyOneOf(["--card", "--email"])) }
            if bookIDs.isEmpty { throw usage("<book-id>", .required) }
        }

        func run() async throws {
            let (library, principal) = try await global.acting()
            let who = try DeskMember(card: card, email: email)
            let books = try bookIDs.map { id throws(NotFound) in try BookID.parse(id) }
            let (member, loans) = try await library.desk.lend.execute(to: who, books: books, by: principal)
            let list = library.circulation.list
            if global.json { return try printJSON(Components.Schemas.DeskLoans(member: member, loans: loans, overdue: list.isOverdue)) }
            print(say(.lentAtDesk(member: member.displayName, card: member.cardNumber?.grouped, books: loans.count)))
            printLoans(loans, list)
        }
    }
}

extension UserCommand {
    /// `shelfmark user show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "A member's record: the account, its library card and the books out.",
            discussion: "With --json, prints what GET /api/v1/users/{idOrEmail} answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The account's email, id or library card number.", valueName: "email-id-or-card")) var member: String

        func run() async throws {
            let (library, principal) = try await global.acting()
            let record = try await library.desk.showMember.execute(member, by: principal)
            let list = library.circulation.list
            if global.json { return try printJSON(Components.Schemas.MemberRecord(record, overdue: list.isOverdue)) }
            printAccounts([record.account])
            print()
            printLoans(record.loans, list)
        }
    }

    /// `shelfmark user issue-cards`.
    struct IssueCards: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            "issue-cards", abstract: "Give a library card to every account that has none (registered before cards).",
            discussion: """
                Such accounts also get theirs at their next login; this issues them all at once. Running it again issues \
                nothing. No API twin; with --json, prints {"issued": N}.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions

        func run() async throws {
            let (library, principal) = try await global.acting()
            let issued = try await library.desk.issueCards.execute(by: principal)
            if global.json { return try printJSON(["issued": issued]) }
            print(say(.cardsIssued(count: issued)))
        }
    }
}

extension AccountCommand {
    /// `shelfmark account card`.
    struct Card: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Your library card's number; with --svg, its scannable barcode drawn into a file.",
            discussion: """
                The file holds exactly what GET /api/v1/me/card answers (an SVG image). No JSON twin, since the API answers \
                the image; with --json, prints {"cardNumber": "…"}.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("Write the card's barcode (SVG) into this new file.", valueName: "file")) var svg: String?

        func run() async throws {
            let (library, principal) = try await global.acting()
            let (_, card) = try await library.desk.myCard.execute(by: principal)
            if let svg {
                guard !FileManager.default.fileExists(atPath: svg) else { throw InvalidInput([FieldError("--svg", .fileExists(svg))]) }
                guard FileManager.default.createFile(atPath: svg, contents: Data(CardImage.svg(card).utf8)) else {
                    throw InvalidInput([FieldError("--svg", .fileUnusable(svg))])
                }
            }
            if global.json { return try printJSON(["cardNumber": card.digits]) }
            print(svg.map { say(.cardDrawn(card.grouped, file: $0)) } ?? say(.libraryCard(card.grouped)))
        }
    }
}
