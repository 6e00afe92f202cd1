import Application
import ArgumentParser
import Domain
import Foundation

extension AuditCommand {
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild the read models from the log into a new database file, optionally stopping in the past.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "A position, or an ISO 8601 time: events after it are left out.") var until: String?
        @Option(help: "The new database file to write.") var into: String

        func run() async throws {
            try await reportingFailures {
                let limit: ReplayLimit
                if let until {
                    if let position = Int64(until) {
                        limit = .position(position)
                    } else {
                        limit = .time(try parseTime(until, option: "--until"))
                    }
                } else {
                    limit = .end
                }
                let (library, principal) = try await global.acting()
                let progress = Progress(label: "replaying")
                let count = try await library.replay.execute(into: into, until: limit, by: principal) { progress.update($0, of: $1) }
                progress.finish()
                if global.json { return try printJSON(["replayed": count]) }
                print("Replayed \(count) events into \(into).")
            }
        }
    }

    struct AsOf: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "as-of", abstract: "The catalogue, the loans, or a member's loans and notices as they were at a moment.",
            usage: "shelfmark audit as-of TIMESTAMP books|loans|member EMAIL")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "An ISO 8601 time, e.g. 2026-12-01T09:00:00Z.") var timestamp: String
        @Argument(help: "books, loans or member.") var view: String
        @Argument(help: "The member's email, for the member view.") var email: String?

        func validate() throws {
            guard ["books", "loans", "member"].contains(view) else { throw ValidationError("the view must be books, loans or member") }
            if view == "member", email == nil { throw ValidationError("the member view needs an email") }
        }

        func run() async throws {
            try await reportingFailures {
                let moment = try parseTime(timestamp, option: "TIMESTAMP")
                let (library, principal) = try await global.acting()
                let which: TimeTravel.View = view == "books" ? .books : view == "loans" ? .loans : .member(email: email ?? "")
                let answer = try await library.timeTravel.execute(at: moment, view: which, by: principal)
                if global.json {
                    return try printJSON(
                        AsOfJSON(
                            events: answer.events,
                            books: answer.books.map {
                                ["id": $0.id.description, "title": $0.details.title, "copies": "\($0.copies)", "onLoan": "\($0.onLoan)"]
                            },
                            loans: answer.loans.map {
                                [
                                    "id": $0.id.description, "book": $0.bookTitle, "borrower": $0.borrowerName,
                                    "returned": "\($0.returnedAt != nil)",
                                ]
                            },
                            notices: answer.notices.map { ["id": $0.id, "kind": $0.kind.rawValue] }))
                }
                print("As of \(timestamp) (\(answer.events) events):")
                switch which {
                case .books:
                    print(
                        answer.books.isEmpty
                            ? "No books."
                            : table(
                                ["ID", "TITLE", "COPIES", "ON LOAN"],
                                answer.books.map {
                                    [$0.id.description, $0.details.title, "\($0.copies)", "\($0.onLoan)"]
                                }))
                case .loans, .member:
                    print(
                        answer.loans.isEmpty
                            ? "No loans."
                            : table(
                                ["LOAN", "BOOK", "BORROWER", "STATE"],
                                answer.loans.map {
                                    [$0.id.description, $0.bookTitle, $0.borrowerName, $0.returnedAt == nil ? "out" : "returned"]
                                }))
                    if case .member = which { print("\(answer.notices.count) notices.") }
                }
            }
        }
    }
}

private struct AsOfJSON: Encodable {
    let events: Int64
    let books: [[String: String]]
    let loans: [[String: String]]
    let notices: [[String: String]]
}

func parseTime(_ text: String, option: String) throws -> Date {
    guard let date = try? Date(text, strategy: .iso8601) else {
        throw CLIFailure("\(option) must be an ISO 8601 time such as 2026-12-01T09:00:00Z")
    }
    return date
}
