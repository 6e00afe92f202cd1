import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark hold ...`.
struct HoldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hold", abstract: t("cli.hold.abstract"),
        discussion: t("cli.hold.discussion"),
        subcommands: [Place.self, List.self, Cancel.self, Queue.self])

    struct Place: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.hold.place.abstract"),
            discussion: t("cli.hold.place.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.hold.place.bookID"), valueName: "book-id")) var bookID: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try printHold(try await library.circulation.holds.place.execute(try BookID.parse(bookID), by: principal), global)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.hold.list.abstract"),
            discussion: t("cli.hold.list.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Flag(help: ArgumentHelp(t("cli.hold.list.ready"))) var ready = false
        @OptionGroup var paging: PagingOptions
        func run() async throws {
            let (library, principal) = try await global.acting()
            let list = library.circulation.holds.list
            let page: Page<HoldSummary>
            if case .user(_, .member, _) = principal, !ready {
                page = try await paging.fetch { try await list.mine(page: $0, by: principal) }
            } else {
                page = try await paging.fetch { try await list.active(ready ? .ready : nil, page: $0, by: principal) }
            }
            try printHolds(page, global)
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.hold.cancel.abstract"),
            discussion: t("cli.hold.cancel.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.hold.cancel.holdID"), valueName: "hold-id")) var holdID: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try printHold(try await library.circulation.holds.cancel.execute(try HoldID.parse(holdID), by: principal), global)
        }
    }

    struct Queue: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.hold.queue.abstract"),
            discussion: t("cli.hold.queue.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.hold.queue.bookID"), valueName: "book-id")) var bookID: String
        @OptionGroup var paging: PagingOptions
        func run() async throws {
            let (library, principal) = try await global.acting()
            let book = try BookID.parse(bookID)
            try printHolds(
                try await paging.fetch { try await library.circulation.holds.list.queue(of: book, page: $0, by: principal) }, global)
        }
    }
}

private func printHold(_ hold: HoldSummary, _ global: GlobalOptions) throws {
    if global.json { return try printJSON(Components.Schemas.Hold(hold)) }
    printHoldTable([hold])
}

private func printHolds(_ page: Page<HoldSummary>, _ global: GlobalOptions) throws {
    if global.json { return try printJSON(Components.Schemas.HoldPage(page)) }
    printHoldTable(page.items)
    if !page.items.isEmpty { print(page.footer) }
}

private func printHoldTable(_ holds: [HoldSummary]) {
    guard !holds.isEmpty else { return print(say(.nothingListed(.holds))) }
    print(
        table(
            [
                t("cli.column.hold"), t("cli.column.book"), t("cli.column.member"), t("cli.column.placed"), t("cli.column.state"),
                t("cli.column.copies"),
            ],
            holds.map { hold in
                let state =
                    switch hold.status {
                    case .waiting: hold.position.map { t("cli.hold.state.inLine", number($0)) } ?? t("cli.hold.state.waiting")
                    case .ready: hold.pickupUntil.map { t("cli.hold.state.readyUntil", TableDates.minute($0)) } ?? t("cli.hold.state.ready")
                    case .fulfilled: t("cli.hold.state.fulfilled")
                    case .cancelled: t("cli.hold.state.cancelled")
                    case .expired: t("cli.hold.state.expired")
                    }
                return [
                    hold.id.description, hold.bookTitle, catalogue.member(of: hold), TableDates.day(hold.placedAt), state,
                    number(hold.copies),
                ]
            }))
}
