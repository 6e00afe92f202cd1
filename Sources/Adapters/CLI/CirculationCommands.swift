import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark loan ...`.
struct LoanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loan", abstract: "Borrow, return and renew books; see who has which book.",
        discussion: "Borrowing needs a logged-in member (`shelfmark login`); librarians and the operator see every loan.",
        subcommands: [Borrow.self, Return.self, Renew.self, List.self, Checkout.self])

    struct Borrow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Borrow one or more books at once: all of them, or none.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The books' ids.") var bookIDs: [String]
        func validate() throws { if bookIDs.isEmpty { throw ValidationError("name at least one book id") } }
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let books = try bookIDs.map { id throws(NotFound) in try BookID.parse(id) }
                try printLoans(try await library.circulation.borrow.execute(books, by: principal), library, global)
            }
        }
    }

    struct Return: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Return a loan; the copy is available at once.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The loan's id.") var loanID: String
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                try printLoans([try await library.circulation.giveBack.execute(try parseLoan(loanID), by: principal)], library, global)
            }
        }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Renew a loan for one more loan period from now.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The loan's id.") var loanID: String
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                try printLoans([try await library.circulation.renew.execute(try parseLoan(loanID), by: principal)], library, global)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A member's own loans; for librarians and the operator, who has which book.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this member's active loans (librarians).") var member: String?
        @Option(help: "Only this book's copies out (librarians).") var book: String?
        @Flag(help: "Only overdue loans (librarians).") var overdue = false
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let list = library.circulation.list
                if case .user(_, .member, _) = principal, member == nil, book == nil, !overdue {
                    return try printLoans(try await list.mine(by: principal), library, global)
                }
                var memberID: UserID?
                if let member { memberID = try await library.accounts.members.find(member, by: principal) }
                let bookID = try book.map { id throws(NotFound) in try BookID.parse(id) }
                try printLoans(try await list.active(member: memberID, book: bookID, overdueOnly: overdue, by: principal), library, global)
            }
        }
    }

    struct Checkout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lend a copy to a walk-in borrower without an account (librarians).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The book's id.") var bookID: String
        @Option(help: "The borrower's name.") var name: String
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let loan = try await library.circulation.checkout.execute(try BookID.parse(bookID), borrowerName: name, by: principal)
                try printLoans([loan], library, global)
            }
        }
    }
}

private func parseLoan(_ text: String) throws -> LoanID {
    guard let id = LoanID(text) else { throw NotFound("loan", text) }
    return id
}

private func printLoans(_ loans: [LoanSummary], _ library: Library, _ global: GlobalOptions) throws {
    let list = library.circulation.list
    if global.json { return try printJSON(loans.map { LoanJSON($0, overdue: list.isOverdue($0)) }) }
    guard !loans.isEmpty else { return print("No loans.") }
    let day = Date.FormatStyle(date: .numeric, time: .omitted, timeZone: .gmt)
    print(
        table(
            ["LOAN", "BOOK", "BORROWER", "DUE", "STATE"],
            loans.map { loan in
                let state =
                    loan.returnedAt != nil
                    ? "returned" : list.isOverdue(loan) ? "OVERDUE" : loan.renewals > 0 ? "renewed \(loan.renewals)x" : "out"
                return [loan.id.description, loan.bookTitle, loan.borrowerName, loan.dueAt.formatted(day), state]
            }))
}

private struct LoanJSON: Encodable {
    let id: String, bookId: String, bookTitle: String, borrowerId: String?, borrowerName: String
    let lentAt: Date, dueAt: Date, renewals: Int, returnedAt: Date?, overdue: Bool
    init(_ l: LoanSummary, overdue: Bool) {
        id = l.id.description
        bookId = l.book.description
        bookTitle = l.bookTitle
        borrowerId = l.borrower?.description
        borrowerName = l.borrowerName
        lentAt = l.lentAt
        dueAt = l.dueAt
        renewals = l.renewals
        returnedAt = l.returnedAt
        self.overdue = overdue
    }
}

/// `shelfmark notices ...`.
struct NoticesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notices", abstract: "Due-soon and overdue notices: scan for them, list yours, mark them read.",
        subcommands: [Scan.self, List.self, Read.self])

    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue the notices due now (or as of a time); each loan gets each notice once, however often this runs.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("as-of"), help: "An ISO 8601 time, e.g. 2026-12-01T09:00:00Z.") var asOf: String?
        func run() async throws {
            try await reportingFailures {
                var when: Date?
                if let asOf {
                    guard let parsed = try? Date(asOf, strategy: .iso8601) else {
                        throw CLIFailure("--as-of must be an ISO 8601 time such as 2026-12-01T09:00:00Z")
                    }
                    when = parsed
                }
                let (library, principal) = try await global.acting()
                let issued = try await library.circulation.scan.execute(asOf: when, by: principal)
                if global.json { return try printJSON(["issued": issued]) }
                print("Issued \(issued) \(issued == 1 ? "notice" : "notices").")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your notices, newest first.")
        @OptionGroup var global: GlobalOptions
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                let notices = try await library.circulation.notices.list(by: principal)
                if global.json {
                    return try printJSON(
                        notices.items.map { ["id": $0.id, "kind": $0.kind.rawValue, "book": $0.bookTitle, "read": "\($0.read)"] })
                }
                print("\(notices.unread) unread.")
                guard !notices.items.isEmpty else { return }
                print(
                    table(
                        ["ID", "KIND", "BOOK", "READ"],
                        notices.items.map { [$0.id, $0.kind.rawValue, $0.bookTitle, $0.read ? "yes" : "no"] }, maxWidth: 60))
            }
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark one notice, or all of them, read.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The notice's id.") var id: String?
        @Flag(help: "Mark every notice read.") var all = false
        func validate() throws {
            if (id == nil) == !all { throw ValidationError("give a notice id or --all") }
        }
        func run() async throws {
            try await reportingFailures {
                let (library, principal) = try await global.acting()
                try await library.circulation.notices.markRead(all ? nil : id, by: principal)
                print("Marked read.")
            }
        }
    }
}
