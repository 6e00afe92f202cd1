import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

extension AuditCommand {
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.audit.replay.abstract"),
            discussion: t("cli.audit.replay.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(help: ArgumentHelp(t("cli.audit.replay.until"), valueName: "position-or-time"))
        var until: String?
        @Option(help: ArgumentHelp(t("cli.audit.replay.into"), valueName: "file")) var into: String

        func run() async throws {
            let limit: ReplayLimit =
                if let until {
                    if let position = Int64(until) { .position(position) } else { .time(try parseTime(until, option: "--until")) }
                } else { .end }
            let (library, principal) = try await global.acting(existing: true)
            let progress = Progress(label: t("cli.progress.replaying"))
            guard !into.isEmpty else { throw InvalidInput([FieldError("--into", .required)]) }
            try library.backUp.refuseOwnFile(into)
            let count = try await library.replay.execute(into: into, until: limit, by: principal) { progress.update($0, of: $1) }
            progress.finish()
            if global.json { return try printJSON(["replayed": count]) }
            print(say(.replayed(events: count, into: into)))
        }
    }

    struct AsOf: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            "as-of", abstract: t("cli.audit.asOf.abstract"),
            usage: "shelfmark audit as-of <time> books|loans|member <email>|holds <book-id>",
            discussion: t("cli.audit.asOf.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.audit.asOf.timestamp"), valueName: "time")) var timestamp: String
        @Argument(help: ArgumentHelp(t("cli.audit.asOf.view"), valueName: "view")) var view: String
        @Argument(help: ArgumentHelp(t("cli.audit.asOf.email"), valueName: "email|book-id"))
        var email: String?

        func validate() throws {
            let views = ["books", "loans", "member", "holds"]
            guard views.contains(view) else { throw usage("<view>", .notOneOf(views)) }
            if view == "member", email == nil { throw usage("<email>", .requiredWith(field: "<view>", value: "member")) }
            if view == "holds", email == nil { throw usage("<book-id>", .requiredWith(field: "<view>", value: "holds")) }
        }

        func run() async throws {
            let moment = try parseTime(timestamp, option: "time")
            let (library, principal) = try await global.acting(existing: true)
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
                            [t("cli.column.id"), t("cli.column.title"), t("cli.column.copies"), t("cli.column.onLoan")],
                            answer.books.map { [$0.id.description, $0.details.title, number($0.copies), number($0.onLoan)] }))
            case .loans, .member:
                print(
                    answer.loans.isEmpty
                        ? say(.nothingListed(.loans))
                        : table(
                            [
                                t("cli.column.loan"), t("cli.column.book"), t("cli.column.borrower"), t("cli.column.due"),
                                t("cli.column.state"),
                            ],
                            answer.loans.map {
                                [
                                    $0.id.description, $0.bookTitle, answer.name($0.borrower) ?? catalogue.borrower(of: $0),
                                    TableDates.minute($0.dueAt),
                                    $0.returnedAt == nil
                                        ? ($0.isOverdue(at: moment) ? t("cli.loan.state.overdue") : t("cli.loan.state.out"))
                                        : t("cli.loan.state.returned"),
                                ]
                            }))
                if case .member = which { print(say(.noticeCount(answer.notices.count))) }
            case .holds:
                print(
                    answer.holds.isEmpty
                        ? say(.nothingListed(.holds))
                        : table(
                            [t("cli.column.hold"), t("cli.column.member"), t("cli.column.placed"), t("cli.column.state")],
                            answer.holds.map {
                                [
                                    $0.id.description, answer.name($0.member) ?? catalogue.member(of: $0), TableDates.minute($0.placedAt),
                                    $0.position.map { t("cli.hold.state.inLine", number($0)) } ?? t("cli.hold.state.ready"),
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
    // As the API reads one: 30 February is refused, not taken for 2 March (found by an outside test).
    guard let date = try? WholeSecondDates().decode(text) else { throw InvalidInput([FieldError(option, .wrongType(.time))]) }
    return date
}
