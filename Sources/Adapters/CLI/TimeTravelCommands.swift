import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

extension AuditCommand {
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Rebuild the read models from the log into a new database file, optionally stopping in the past.",
            discussion: "No API twin; with --json, prints {\"replayed\": N}.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp("A position, or an ISO 8601 time: events after it are left out.", valueName: "position-or-time"))
        var until: String?
        @Option(help: ArgumentHelp("The new database file to write.", valueName: "file")) var into: String

        func run() async throws {
            let limit: ReplayLimit =
                if let until {
                    if let position = Int64(until) { .position(position) } else { .time(try parseTime(until, option: "--until")) }
                } else { .end }
            let (library, principal) = try await global.acting()
            let progress = Progress(label: "replaying")
            let count = try await library.replay.execute(into: into, until: limit, by: principal) { progress.update($0, of: $1) }
            progress.finish()
            if global.json { return try printJSON(["replayed": count]) }
            print(say(.replayed(events: count, into: into)))
        }
    }

    struct AsOf: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            "as-of", abstract: "The catalogue, the loans, a member's loans and notices, or a book's line as they were at a moment.",
            usage: "shelfmark audit as-of <time> books|loans|member <email>|holds <book-id>",
            discussion: "With --json, prints what GET /api/v1/audit/as-of answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("An ISO 8601 time, e.g. 2026-12-01T09:00:00Z.", valueName: "time")) var timestamp: String
        @Argument(help: ArgumentHelp("books, loans, member or holds.", valueName: "view")) var view: String
        @Argument(help: ArgumentHelp("The member's email (member view), or the book's id (holds view).", valueName: "email|book-id"))
        var email: String?

        func validate() throws {
            let views = ["books", "loans", "member", "holds"]
            guard views.contains(view) else { throw usage("<view>", .notOneOf(views)) }
            if view == "member", email == nil { throw usage("<email>", .requiredWith(field: "<view>", value: "member")) }
            if view == "holds", email == nil { throw usage("<book-id>", .requiredWith(field: "<view>", value: "holds")) }
        }

        func run() async throws {
            let moment = try parseTime(timestamp, option: "time")
            let (library, principal) = try await global.acting()
            let which: TimeTravel.View =
                switch view {
                case "books": .books
                case "loans": .loans
                case "holds": .holds(book: try BookID.parse(email ?? ""))
                default: .member(email: email ?? "")
                }
            let answer = try await library.timeTravel.execute(at: moment, view: which, by: principal)
            if global.json { return try printJSON(Operations.AsOf.Output.Ok.Body.JsonPayload(answer, at: moment)) }
            print(say(.asOf(moment, events: answer.events)))
            switch which {
            case .books:
                print(
                    answer.books.isEmpty
                        ? say(.nothingListed(.books))
                        : table(
                            ["ID", "TITLE", "COPIES", "ON LOAN"],
                            answer.books.map { [$0.id.description, $0.details.title, "\($0.copies)", "\($0.onLoan)"] }))
            case .loans, .member:
                print(
                    answer.loans.isEmpty
                        ? say(.nothingListed(.loans))
                        : table(
                            ["LOAN", "BOOK", "BORROWER", "DUE", "STATE"],
                            answer.loans.map {
                                [
                                    $0.id.description, $0.bookTitle, answer.name($0.borrower) ?? catalogue.borrower(of: $0),
                                    TableDates.minute($0.dueAt),
                                    $0.returnedAt == nil ? ($0.isOverdue(at: moment) ? "OVERDUE" : "out") : "returned",
                                ]
                            }))
                if case .member = which { print(say(.noticeCount(answer.notices.count))) }
            case .holds:
                print(
                    answer.holds.isEmpty
                        ? say(.nothingListed(.holds))
                        : table(
                            ["HOLD", "MEMBER", "PLACED", "STATE"],
                            answer.holds.map {
                                [
                                    $0.id.description, answer.name($0.member) ?? catalogue.member(of: $0), TableDates.minute($0.placedAt),
                                    $0.position.map { "waiting, number \($0) in line" } ?? "ready",
                                ]
                            }))
            }
        }
    }
}

extension TimeTravel.Answer {
    /// A member the answer names, as the accounts say now ("Ada Lovelace <ada@example.org>", "erased member").
    func name(_ member: UserID?) -> String? { member.flatMap { people[$0] }.map { say(.actor($0)) } }
}

/// An ISO 8601 time given on the command line; a field error on `option` when it is not one.
func parseTime(_ text: String, option: String) throws -> Date {
    guard let date = try? Date(text, strategy: .iso8601) else { throw InvalidInput([FieldError(option, .wrongType(.time))]) }
    return date
}
