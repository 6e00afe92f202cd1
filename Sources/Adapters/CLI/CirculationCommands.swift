import APIContract
import Application
import ArgumentParser
import Domain
import Foundation

/// `shelfmark loan ...`.
struct LoanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loan", abstract: t("cli.loan.abstract"),
        discussion: t("cli.loan.discussion"),
        subcommands: [Borrow.self, Return.self, Renew.self, List.self, Checkout.self])

    struct Borrow: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.loan.borrow.abstract"),
            discussion: t("cli.loan.borrow.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.loan.borrow.bookIDs"), valueName: "book-id")) var bookIDs: [String]
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
            abstract: t("cli.loan.return.abstract"),
            discussion: t("cli.loan.return.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.loan.return.loanID"), valueName: "loan-id")) var loanID: String
        func run() async throws {
            let (library, principal) = try await global.acting()
            let back = try await library.circulation.giveBack.execute(try parseLoan(loanID), by: principal)
            let list = library.circulation.list
            if global.json { return try printJSON(Components.Schemas.ReturnedLoan(back, overdue: list.isOverdue(back.loan))) }
            printLoans([back.loan], list)
            if back.returnedBefore, let returned = back.loan.returnedAt {
                print(t("cli.loan.return.before", TableDates.minute(returned)))
            }
            if let kept = back.setAsideFor {
                print(
                    t(
                        "cli.loan.return.setAside", catalogue.member(of: kept), kept.pickupUntil.map { TableDates.minute($0) } ?? "",
                        kept.id.description))
            }
        }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.loan.renew.abstract"),
            discussion: t("cli.loan.renew.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.loan.renew.loanID"), valueName: "loan-id")) var loanID: String?
        @Flag(help: ArgumentHelp(t("cli.loan.renew.all"))) var all = false
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
                    [t("cli.column.loan"), t("cli.column.book"), t("cli.column.due"), t("cli.column.renewed")],
                    report.map { r in
                        [
                            r.loan.id.description, r.loan.bookTitle, TableDates.minute(r.loan.dueAt),
                            r.refusal.map { t("cli.renewed.no", catalogue.text($0.message)) } ?? t("cli.yes"),
                        ]
                    }, maxWidth: 120))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.loan.list.abstract"),
            discussion: t("cli.loan.list.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(
            help: ArgumentHelp(t("cli.loan.list.member"), valueName: "member"))
        var member: String?
        @Option(help: ArgumentHelp(t("cli.loan.list.borrower"), valueName: "name"))
        var borrower: String?
        @Option(help: ArgumentHelp(t("cli.loan.list.book"), valueName: "book-id")) var book: String?
        @Flag(help: ArgumentHelp(t("cli.loan.list.overdue"))) var overdue = false
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
            // No loans at all is said once; a page past the end says how many there are.
            guard !page.items.isEmpty else { return print(page.total == 0 ? say(.nothingListed(.loans)) : page.footer) }
            printLoans(page.items, list)
            print(page.footer)
        }
    }

    struct Checkout: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.loan.checkout.abstract"),
            discussion: t("cli.loan.checkout.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.loan.checkout.bookID"), valueName: "book-id")) var bookID: String
        @Option(help: ArgumentHelp(t("cli.loan.checkout.name"))) var name: String
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
            [
                t("cli.column.loan"), t("cli.column.book"), t("cli.column.borrower"), t("cli.column.lent"), t("cli.column.due"),
                t("cli.column.state"),
            ],
            loans.map { loan in
                let state =
                    if let returned = loan.returnedAt {
                        t("cli.loan.state.returnedOn", TableDates.day(returned))
                    } else if list.isOverdue(
                        loan)
                    {
                        t("cli.loan.state.overdue")
                    } else if loan.renewals > 0 {
                        t("cli.loan.state.renewed", count: loan.renewals, number(loan.renewals))
                    } else {
                        t("cli.loan.state.out")
                    }
                return [
                    loan.id.description, loan.bookTitle, catalogue.borrower(of: loan), TableDates.day(loan.lentAt),
                    TableDates.minute(loan.dueAt),
                    state,
                ]
            }))
}

/// A notice's kind as a person reads it.
func kindName(_ kind: NoticeKind) -> String {
    switch kind {
    case .dueSoon: t("cli.notice.dueSoon")
    case .overdue: t("cli.notice.overdue")
    case .readyForPickup: t("cli.notice.readyForPickup")
    case .holdCancelled: t("cli.notice.holdCancelled")
    case .holdCancelledAtDesk: t("cli.notice.holdCancelledAtDesk")
    case .holdExpired: t("cli.notice.holdExpired")
    }
}

/// A notice's date under DUE: a loan's due date, or until when a copy is kept; nothing for a hold
/// that ended, whose date is when (an outside walk read "to return on" there).
func dueColumn(_ notice: NoticeSummary) -> String {
    switch notice.kind {
    case .dueSoon, .overdue, .readyForPickup: TableDates.minute(notice.dueAt)
    case .holdCancelled, .holdCancelledAtDesk, .holdExpired: "-"
    }
}

/// `shelfmark notices ...`.
struct NoticesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notices", abstract: t("cli.notices.abstract"),
        subcommands: [Scan.self, List.self, Read.self])

    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.notices.scan.abstract"),
            discussion: t("cli.notices.scan.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Option(name: .customLong("as-of"), help: ArgumentHelp(t("cli.notices.scan.asOf"), valueName: "time"))
        var asOf: String?
        func run() async throws {
            let when = try asOf.map { try parseTime($0, option: "--as-of") }
            let (library, principal) = try await global.acting()
            if let when {
                let notices = try await library.circulation.scan.rehearse(asOf: when, by: principal)
                if global.json { return try printJSON(["issued": 0, "wouldIssue": notices.count]) }
                if !notices.isEmpty {
                    let rows = notices.map { [kindName($0.kind), $0.bookTitle, TableDates.minute($0.dueAt), $0.loan.description] }
                    print(table([t("cli.column.wouldIssue"), t("cli.column.book"), t("cli.column.due"), t("cli.column.loan")], rows))
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
            abstract: t("cli.notices.list.abstract"),
            discussion: t("cli.notices.list.discussion"))
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
                    [
                        t("cli.column.id"), t("cli.column.kind"), t("cli.column.book"), t("cli.column.due"), t("cli.column.issued"),
                        t("cli.column.read"),
                    ],
                    page.items.map {
                        [
                            $0.id, kindName($0.kind), $0.bookTitle, dueColumn($0), TableDates.minute($0.issuedAt),
                            $0.read ? t("cli.yes") : t("cli.no"),
                        ]
                    }, maxWidth: 60))
            print(page.footer)
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration.leaf(
            abstract: t("cli.notices.read.abstract"),
            discussion: t("cli.notices.read.discussion"))
        @OptionGroup(visibility: .hidden) var global: GlobalOptions
        @Argument(help: ArgumentHelp(t("cli.notices.read.id"), valueName: "notice-id")) var id: String?
        @Flag(help: ArgumentHelp(t("cli.notices.read.all"))) var all = false
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
