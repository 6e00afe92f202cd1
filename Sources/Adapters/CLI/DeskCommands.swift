import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark desk ...`: the front desk, for librarians and the operator.
struct DeskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desk", abstract: t("cli.desk.abstract"),
        discussion:
            t("cli.desk.discussion"),
        subcommands: [Lend.self])

    struct Lend: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.desk.lend.abstract"),
            discussion:
                t("cli.desk.lend.discussion")
        )
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.desk.lend.card"), valueName: "number")) var card: String?
        @Option(help: ArgumentHelp(t("cli.desk.lend.email"), valueName: "address")) var email: String?
        @Argument(help: ArgumentHelp(t("cli.desk.lend.bookIDs"), valueName: "book-id")) var bookIDs: [String] = []

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
            abstract: t("cli.user.show.abstract"),
            discussion: t("cli.user.show.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.user.show.member"), valueName: "email-id-or-card")) var member: String

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
            "issue-cards", abstract: t("cli.user.issueCards.abstract"),
            discussion: t("cli.user.issueCards.discussion"))
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
            abstract: t("cli.account.card.abstract"),
            discussion: t("cli.account.card.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.account.card.svg"), valueName: "file")) var svg: String?

        func run() async throws {
            let (library, principal) = try await global.acting()
            let (_, card) = try await library.desk.myCard.execute(by: principal)
            if let svg {
                try library.backUp.refuseOwnFile(svg)
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
