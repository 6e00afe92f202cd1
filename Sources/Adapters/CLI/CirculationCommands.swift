import APIContract
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
        static let configuration = CommandConfiguration.leaf(
            abstract: "Borrow one or more books at once: all of them, or none.",
            discussion: "With --json, prints what POST /api/v1/loans answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The books to borrow.", valueName: "book-id")) var bookIDs: [String]
        func validate() throws { if bookIDs.isEmpty { throw usage("<book-id>", .required) } }
        func run() async throws {
            let (library, principal) = try await global.acting()
            let books = try bookIDs.map { id throws(NotFound) in try BookID.parse(id) }
            let loans = try await library.circulation.borrow.execute(books, by: principal)
            let list = library.circulation.list
            if global.json { return try printJSON(Operations.BorrowBooks.Output.Created.Body.JsonPayload(loans, overdue: list.isOverdue)) }
            printLoans(loans, list)
        }
    }

    struct Return: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Return a loan; the copy is available at once.",
            discussion: "With --json, prints what POST /api/v1/loans/{id}/return answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The loan's id.", valueName: "loan-id")) var loanID: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try printLoan(try await library.circulation.giveBack.execute(try parseLoan(loanID), by: principal), library, global)
        }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Renew a loan for one more loan period from its due date; with --all, every loan of yours that can be.",
            discussion: """
                Refused while overdue, at the renewal limit, or while other members wait for the book. With --json, prints \
                what POST /api/v1/loans/{id}/renew answers (--all: POST /api/v1/me/loans/renew-all).
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The loan's id.", valueName: "loan-id")) var loanID: String?
        @Flag(help: "Renew every loan of yours that can be renewed, and say why not of the others.") var all = false
        func validate() throws {
            if all && loanID != nil { throw usage("--all", .exactlyOneOf(["<loan-id>", "--all"])) }
            if !all && loanID == nil { throw usage("<loan-id>", .required) }
        }
        func run() async throws {
            let (library, principal) = try await global.acting()
            guard all, loanID == nil else {
                return try printLoan(
                    try await library.circulation.renew.execute(try parseLoan(loanID ?? ""), by: principal), library, global)
            }
            let report = try await library.circulation.renewAll.execute(by: principal)
            let list = library.circulation.list
            if global.json {
                let renewals = report.map { Components.Schemas.Renewal($0, overdue: list.isOverdue($0.loan), in: catalogue) }
                return try printJSON(Operations.RenewAllLoans.Output.Ok.Body.JsonPayload(renewals: renewals))
            }
            guard !report.isEmpty else { return print(say(.nothingListed(.loans))) }
            print(
                table(
                    ["LOAN", "BOOK", "DUE", "RENEWED"],
                    report.map { r in
                        [
                            r.loan.id.description, r.loan.bookTitle, TableDates.minute(r.loan.dueAt),
                            r.refusal.map { "no: \(catalogue.text($0.message))" } ?? "yes",
                        ]
                    }, maxWidth: 120))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "A member's own loans; for librarians and the operator, who has which book.",
            discussion: """
                With --json, prints what GET /api/v1/me/loans answers for a member without filters, else what \
                GET /api/v1/loans answers.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(
            help: ArgumentHelp("Only this member's active loans (librarians): an email, account id or card number.", valueName: "member"))
        var member: String?
        @Option(help: ArgumentHelp("Only this walk-in borrower's active loans, by name (librarians).", valueName: "name"))
        var borrower: String?
        @Option(help: ArgumentHelp("Only this book's copies out (librarians).", valueName: "book-id")) var book: String?
        @Flag(help: "Only overdue loans (librarians).") var overdue = false
        @OptionGroup var paging: PagingOptions
        func run() async throws {
            let (library, principal) = try await global.acting()
            let list = library.circulation.list
            let page: Page<LoanSummary>
            if case .user(_, .member, _) = principal, member == nil, borrower == nil, book == nil, !overdue {
                page = try await paging.fetch { try await list.mine(page: $0, by: principal) }
            } else {
                let bookID = try book.map { id throws(NotFound) in try BookID.parse(id) }
                page = try await paging.fetch {
                    try await library.desk.loans.execute(
                        member: member, walkIn: borrower, book: bookID, overdueOnly: overdue, page: $0, by: principal)
                }
            }
            if global.json { return try printJSON(Components.Schemas.LoanPage(page, overdue: list.isOverdue)) }
            printLoans(page.items, list)
            print(page.footer)
        }
    }

    struct Checkout: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Lend a copy to a walk-in borrower without an account (librarians).",
            discussion: "With --json, prints what POST /api/v1/books/{id}/checkout answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The book to lend.", valueName: "book-id")) var bookID: String
        @Option(help: "The borrower's name.") var name: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            try printLoan(
                try await library.circulation.checkout.execute(try BookID.parse(bookID), borrowerName: name, by: principal), library, global
            )
        }
    }
}

private func parseLoan(_ text: String) throws -> LoanID {
    guard let id = LoanID(text) else { throw NotFound(.loan, text) }
    return id
}

/// One loan as the API's JSON, or as a table.
private func printLoan(_ loan: LoanSummary, _ library: Library, _ global: GlobalOptions) throws {
    let list = library.circulation.list
    if global.json { return try printJSON(Components.Schemas.Loan(loan, overdue: list.isOverdue(loan))) }
    printLoans([loan], list)
}

/// Loans as a table (or the catalogue's "nothing listed").
func printLoans(_ loans: [LoanSummary], _ list: ListLoans) {
    guard !loans.isEmpty else { return print(say(.nothingListed(.loans))) }
    print(
        table(
            ["LOAN", "BOOK", "BORROWER", "LENT", "DUE", "STATE"],
            loans.map { loan in
                let state =
                    if let returned = loan.returnedAt { "returned \(TableDates.day(returned))" } else if list.isOverdue(loan) {
                        "OVERDUE"
                    } else if loan.renewals > 0 { "renewed \(loan.renewals)x" } else { "out" }
                return [
                    loan.id.description, loan.bookTitle, catalogue.borrower(of: loan), TableDates.day(loan.lentAt),
                    TableDates.minute(loan.dueAt),
                    state,
                ]
            }))
}

/// `shelfmark notices ...`.
struct NoticesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notices", abstract: "Due-soon and overdue notices: scan for them, list yours, mark them read.",
        subcommands: [Scan.self, List.self, Read.self])

    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Issue the notices due now; each loan gets each notice once per due date, however often this runs.",
            discussion: """
                With --as-of, a rehearsal: lists the notices a scan at that time would issue, and issues none (only the \
                clock decides what is issued). No API twin (the server scans on its own); with --json, prints \
                {"issued": N}, or {"issued": 0, "wouldIssue": N} for a rehearsal.
                """)
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(name: .customLong("as-of"), help: ArgumentHelp("An ISO 8601 time, e.g. 2026-12-01T09:00:00Z.", valueName: "time"))
        var asOf: String?
        func run() async throws {
            let when = try asOf.map { try parseTime($0, option: "--as-of") }
            let (library, principal) = try await global.acting()
            if let when {
                let notices = try await library.circulation.scan.rehearse(asOf: when, by: principal)
                if global.json { return try printJSON(["issued": 0, "wouldIssue": notices.count]) }
                if !notices.isEmpty {
                    let rows = notices.map { [$0.kind.rawValue, $0.bookTitle, TableDates.minute($0.dueAt), $0.loan.description] }
                    print(table(["WOULD ISSUE", "BOOK", "DUE", "LOAN"], rows))
                }
                return print(say(.noticesRehearsed(count: notices.count, asOf: when)))
            }
            let issued = try await library.circulation.scan.execute(by: principal)
            if global.json { return try printJSON(["issued": issued]) }
            print(say(.noticesIssued(count: issued)))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Your notices, newest first, with how many are unread.",
            discussion: "With --json, prints what GET /api/v1/me/notifications answers.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @OptionGroup var paging: PagingOptions
        func run() async throws {
            let (library, principal) = try await global.acting()
            let notices = library.circulation.notices
            var unread = 0
            let page = try await paging.fetch { request in
                let answer = try await notices.list(page: request, by: principal)
                unread = answer.unread
                return answer.page
            }
            let answer = NoticePage(page: page, unread: unread)
            if global.json { return try printJSON(Components.Schemas.NoticePage(answer)) }
            print(say(.unreadNotices(count: unread)))
            guard !page.items.isEmpty else { return }
            print(
                table(
                    ["ID", "KIND", "BOOK", "DUE", "ISSUED", "READ"],
                    page.items.map {
                        [
                            $0.id, $0.kind.rawValue, $0.bookTitle, TableDates.minute($0.dueAt), TableDates.minute($0.issuedAt),
                            $0.read ? "yes" : "no",
                        ]
                    }, maxWidth: 60))
            print(page.footer)
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: "Mark one notice, or all of them, read.",
            discussion: "With --json, prints nothing, as POST /api/v1/me/notifications/{id}/read (or read-all) answers 204.")
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp("The notice's id.", valueName: "notice-id")) var id: String?
        @Flag(help: "Mark every notice read.") var all = false
        func validate() throws {
            if (id == nil) == !all { throw usage(.exactlyOneOf(["<notice-id>", "--all"])) }
        }
        func run() async throws {
            let (library, principal) = try await global.acting()
            try await library.circulation.notices.markRead(all ? nil : id, by: principal)
            if !global.json { print(say(.noticesMarkedRead)) }
        }
    }
}
