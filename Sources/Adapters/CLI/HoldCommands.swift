import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark hold ...`.
struct HoldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hold", abstract: "Wait for a book that is out: place, list and cancel holds; see a book's line.",
        discussion: """
            A hold is placed on a book with no copy on the shelf; the first copy back is kept for the first in line \
            until the pickup date. Placing needs a logged-in member (`shelfmark login`).
            """,
        subcommands: [Place.self, List.self, Cancel.self, Queue.self])

    struct Place: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Place a hold on a book that is out; prints your place in line.",
            discussion: "With --json, prints what POST /api/v1/holds answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The book to wait for.", valueName: "book-id")) var bookID: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try printHold(try await library.circulation.holds.place.execute(try BookID.parse(bookID), by: principal), global)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Your holds, with your place in line or the pickup date; for librarians, every active hold.",
            discussion: """
                With --json, prints what GET /api/v1/me/holds answers for a member, else what GET /api/v1/holds answers \
                (--ready: ?status=ready).
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Flag(help: "Only the copies to set aside for pickup, soonest pickup date first (librarians).") var ready = false
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
            abstract: "Cancel a hold (yours; librarians any). Everyone behind moves up.",
            discussion: "With --json, prints what DELETE /api/v1/holds/{id} answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The hold's id.", valueName: "hold-id")) var holdID: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try printHold(try await library.circulation.holds.cancel.execute(try HoldID.parse(holdID), by: principal), global)
        }
    }

    struct Queue: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "A book's waiting list: who, since when, in which place (librarians).",
            discussion: "With --json, prints what GET /api/v1/books/{id}/holds answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The book.", valueName: "book-id")) var bookID: String
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
            ["HOLD", "BOOK", "MEMBER", "PLACED", "STATE", "COPIES"],
            holds.map { hold in
                let state =
                    switch hold.status {
                    case .waiting: hold.position.map { "waiting, number \($0) in line" } ?? "waiting"
                    case .ready: hold.pickupUntil.map { "ready until \(TableDates.minute($0))" } ?? "ready"
                    case .fulfilled, .cancelled, .expired: hold.status.rawValue
                    }
                return [
                    hold.id.description, hold.bookTitle, catalogue.member(of: hold), TableDates.day(hold.placedAt), state, "\(hold.copies)",
                ]
            }))
}
