import Domain
import Foundation

/// Every text Shelfmark shows a person, in English: refusals, "not found", trouble outside, and
/// confirmations. A translation is one more `MessageCatalogue` beside this one, switching over
/// the same cases (the compiler lists any it misses).
public struct English: MessageCatalogue {
    public init() {}

    public func text(_ message: Message) -> String {
        switch message {
        case .notFound(let thing, let id): notFound(thing, id)
        case .invalidInput(let errors): errors.map(text).joined(separator: "; ")
        case .badSetting(let setting, let value, let problem): badSetting(setting, value, problem)
        case .cannotListen(let problem): cannotListen(problem)
        case .integrity(let problem): integrity(problem)
        case .backup(let problem): backup(problem)
        case .bookAlreadyInCatalogue(let book): "\(name(book)) is already in the catalogue"
        case .copiesOnLoan(let book, let onLoan):
            "\(name(book)) has \(copies(onLoan)) on loan, so it cannot be withdrawn until \(onLoan == 1 ? "it is" : "they are") returned"
        case .fewerCopiesThanOnLoan(let book, let requested, let onLoan):
            "\(name(book)) has \(copies(onLoan)) on loan, so the library cannot own only \(requested)"
        case .noCopyAvailable(let book, let total):
            "no copy of \(name(book)) is available: \(total == 1 ? "the only copy is" : "all \(total) copies are") on loan"
        case .duplicateISBN(let isbn, let existing):
            "ISBN \(isbn) is already in the catalogue as \(name(existing)) (id \(existing.id)); "
                + "change that book's copies instead, or ask for a second record explicitly"
        case .loanAlreadyReturned(let title): "\(loan(title)) was returned already"
        case .renewalLimitReached(let title, let max):
            "\(loan(title)) was renewed \(times(max)) already, the most allowed; return it when you are done"
        case .overdueCannotBeRenewed(let title): "\(loan(title)) is overdue, so it cannot be renewed: please return it"
        case .othersWaiting(let title, let count):
            "\(loan(title)) cannot be renewed: \(count == 1 ? "another member is" : "\(count) other members are") waiting for the book;"
                + " please return it by its due date"
        case .loanIDInUse: "another loan has this id already"
        case .loanLimitReached(let max, let active, let requested): loanLimit(max: max, active: active, requested: requested)
        case .tooManyInOneRequest(let max): "at most \(max) books can be borrowed at once"
        case .blockedByOverdue(let books): overdueBlock(books)
        case .bookAskedTwice(let book): "\(name(book)) is asked for twice, or is already borrowed by you"
        case .memberLoanLimitReached(let member, let max, let active, let requested):
            memberLoanLimit(member, max: max, active: active, requested: requested)
        case .memberBlockedByOverdue(let member, let books): "\(member) \(overdueBlock(books, member: true))"
        case .memberHasBookAlready(let member, let book): "\(name(book)) is asked for twice, or \(member) has it on loan already"
        case .walkInLimitReached(let name, let max, let active):
            "\(name) has \(active == 1 ? "1 book" : "\(active) books") on loan at the desk, and a walk-in borrower may have at most"
                + " \(max): a book must come back first, or \(name) can sign up as a member"
        case .appKey(let problem): appKey(problem)
        case .appRequest(let problem): appRequest(problem)
        case .noCardYet: "your account has no library card yet: log out and log in again to get one, or ask at the desk"
        case .copyOnShelf(let book, let available):
            "\(available == 1 ? "a copy" : "\(available) copies") of \(name(book)) \(available == 1 ? "is" : "are") on the shelf: borrow it"
        case .alreadyHolding(let book, let position):
            position.map { "you already hold \(name(book)): you are number \($0) in line" }
                ?? "a copy of \(name(book)) is already kept for you: borrow it"
        case .holdOnBorrowedBook(let book): "you have \(name(book)) on loan already, so there is nothing to wait for"
        case .holdLimitReached(let max): "you have \(max) \(max == 1 ? "hold" : "holds"), the most allowed; cancel one to place another"
        case .copiesKeptForOthers(let book, let count):
            "\(count == 1 ? "the copy" : "every copy") of \(name(book)) on the shelf is kept for \(count == 1 ? "a member" : "members")"
                + " who waited for it; place a hold to join the line"
        case .copiesKeptCannotGo(let book, let count):
            "\(name(book)) has \(copies(count)) kept for members who waited for \(count == 1 ? "it" : "them"), so \(count == 1 ? "it" : "they")"
                + " cannot be removed until borrowed or released"
        case .holdIDInUse: "another hold has this id already"
        case .unauthenticated: "please log in first: this needs a valid session"
        case .forbidden(.librarianOnly): "only a librarian may do this"
        case .forbidden(.operatorOnly):
            "only the database's operator may export the secrets (password hashes, reset codes): run `shelfmark logout`, then"
                + " export again to keep them for a backup, or export without --include-secrets"
        case .emailTaken: "an account with this email address already exists"
        case .usernameTaken: "another account already has this username"
        case .lastLibrarian(let member):
            "\(member.displayName) (\(member.email)) is the library's last librarian and stays one: "
                + "promote another member to librarian first (shelfmark user promote EMAIL)"
        case .closingWithLoans(let member, let books):
            "the account of \(member.displayName) (\(member.email)) stays open while books are on loan to them: return "
                + books.map { "\($0.title.map { "“\($0)”" } ?? "a book") (due \(Self.day($0.dueAt)))" }.joined(separator: ", ")
                + " first, then close it"
        case .closingWithHolds(let member, let titles):
            "the account of \(member.displayName) (\(member.email)) stays open while they wait for "
                + "\(titles.map { $0.map { "“\($0)”" } ?? "a book" }.joined(separator: ", ")): cancel the "
                + "\(titles.count == 1 ? "hold" : "holds") first (shelfmark hold cancel HOLD-ID), then close it"
        case .librarianOnlyOnCommandLine(let member):
            "only a librarian may do this, and the CLI is acting as \(acting(.member(member, .member))). To switch: "
                + "shelfmark logout (to act as the operator), or shelfmark login --email ADDRESS (as a librarian)"
        case .invalidCredentials: "wrong email address, username or password"
        case .loginThrottled(let until):
            "too many failed logins for this email address from your network address; try again after \(Self.time(until))"
        case .tooManyAttempts(let seconds):
            "too many login and signup attempts from your address; try again in \(seconds) \(seconds == 1 ? "second" : "seconds")"
        case .wrongPassword: "the current password you typed is not right, so your password was not changed"
        case .resetCodeRefused:
            "this reset code does not work for this email address: it may be mistyped, used already, replaced by a newer code"
                + " or more than 24 hours old; ask a librarian for a new one"
        case .request(let trouble): request(trouble)
        case .serverBusy: "the server is busy receiving other requests; try again in a few seconds"
        case .serverFailed: "the server failed on this request; the error was logged"
        case .contention: "the library was busy with other changes to the same records; please try again"
        case .upstreamUnavailable(let upstream): unavailable(upstream)
        case .done(let confirmation): text(confirmation)
        }
    }

    // MARK: The parts

    /// A book by its title in quotes, or by its id when the title is not known.
    func name(_ book: BookName) -> String { book.title.map { "“\($0)”" } ?? "book \(book.id)" }

    private func loan(_ title: String?) -> String { title.map { "the loan of “\($0)”" } ?? "this loan" }

    private func copies(_ count: Int) -> String { count == 1 ? "1 copy" : "\(count) copies" }

    private func times(_ count: Int) -> String { count == 1 ? "once" : count == 2 ? "twice" : "\(count) times" }

    private func notFound(_ thing: NotFound.Thing, _ id: String) -> String {
        let kind =
            switch thing {
            case .book: "book"
            case .loan: "loan"
            case .user: "member"
            case .notice: "notice"
            case .hold: "hold"
            case .card: "library card"
            case .work: "Open Library work"
            case .edition: "Open Library edition"
            case .stream: "stream in the log"
            }
        if id.isEmpty { return "there is no such \(kind)" }
        if thing == .user, id.contains("@") { return "there is no member with the email address '\(id.prefix(254))'" }
        if thing == .card { return "no member has the library card \(id.prefix(40)); check the number, or look the member up by email" }
        return thing == .edition
            ? "Open Library has no edition with ISBN \(id.prefix(40))" : "there is no \(kind) with id '\(id.prefix(100))'"
    }

    private func badSetting(_ setting: String, _ value: String?, _ problem: FieldProblem) -> String {
        guard !setting.isEmpty else { return text(problem) }
        let given = value.map { ", not '\($0)'" } ?? ""
        return "\(setting) \(text(problem))\(given)"
    }

    private func cannotListen(_ problem: ListenProblem, port option: String = "--port", host hostOption: String = "--host") -> String {
        switch problem {
        case .bitbooks(let problem): cannotListen(problem, port: "--bitbooks-port", host: "--bitbooks-host")
        case .portInUse(let host, let port):
            "port \(port) is already in use on \(host); stop the other server or choose another port with \(option)"
        case .portNeedsPrivilege(let host, let port):
            "port \(port) on \(host) needs privileges this user does not have; choose a port from 1024 up with \(option)"
        case .notAnAddressHere(let host):
            "\(host) is not an address of this machine; choose one of its addresses with \(hostOption) "
                + "(127.0.0.1 for this machine only, 0.0.0.0 for every network)"
        case .unknownHost(let host):
            "the host name '\(host.prefix(100))' cannot be found; give an address of this machine with \(hostOption), such as 127.0.0.1"
        }
    }

    private func loanLimit(max: Int, active: Int, requested: Int) -> String {
        let left = Swift.max(0, max - active)
        let have = active == 1 ? "1 book" : "\(active) books"
        return "you have \(have) on loan and may have at most \(max), so you can borrow \(left) more, not \(requested)"
    }

    private func overdueBlock(_ books: [OverdueBook], member: Bool = false) -> String {
        let list = books.map { "\($0.title.map { "“\($0)”" } ?? "a book") (due \(Self.day($0.dueAt)))" }.joined(separator: ", ")
        let which = books.count == 1 ? "book" : "books"
        return member ? "must return the overdue \(which) first: \(list)" : "please return your overdue \(which) first: \(list)"
    }

    private func memberLoanLimit(_ member: String, max: Int, active: Int, requested: Int) -> String {
        let left = Swift.max(0, max - active)
        let has = active == 1 ? "1 book" : "\(active) books"
        return "\(member) has \(has) on loan and may have at most \(max), so can borrow \(left) more, not \(requested)"
    }

    private func unavailable(_ upstream: Upstream) -> String {
        switch upstream {
        case .openLibrary:
            "Open Library cannot be reached just now, so nothing was fetched from it; the library's own catalogue still works. Please try again later"
        case .restCountries: "the list of countries cannot be reached just now; please try again later"
        }
    }

    /// A day, unambiguous in every country: `2026-12-07`.
    static func day(_ date: Date) -> String { date.formatted(.iso8601.year().month().day()) }

    /// A time to the minute, in UTC: `2026-12-07 09:30 UTC`.
    static func time(_ date: Date) -> String {
        let text = date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)
        ).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        return text + " UTC"
    }
}
