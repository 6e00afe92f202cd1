import Application
import Domain
import Foundation

extension Wording {
    /// The message, said in full.
    public func text(_ message: Message) -> String {
        switch message {
        case .notFound(let thing, let id): notFound(thing, id)
        case .invalidInput(let errors): separated(errors.map(fieldError))
        case .badSetting(let setting, let value, let problem): badSetting(setting, value, problem)
        case .cannotListen(let problem): cannotListen(problem)
        case .integrity(let problem): integrity(problem)
        case .backup(let problem): backup(problem)
        case .bookAlreadyInCatalogue(let book): t("message.bookAlreadyInCatalogue", name(book))
        case .copiesOnLoan(let book, let onLoan): t("message.copiesOnLoan", count: onLoan, name(book), n(onLoan))
        case .fewerCopiesThanOnLoan(let book, let requested, let onLoan):
            t("message.fewerCopiesThanOnLoan", count: onLoan, name(book), n(onLoan), n(requested))
        case .noCopyAvailable(let book, let total): t("message.noCopyAvailable", count: total, name(book), n(total))
        case .duplicateISBN(let isbn, let existing): t("message.duplicateISBN", isbn, name(existing), "\(existing.id)")
        case .appKey(let problem): appKey(problem)
        case .appRequest(let problem): appRequest(problem)
        case .request(let trouble): request(trouble)
        case .retry(let trouble): retry(trouble)
        case .done(let confirmation): text(confirmation)
        // Loans, said to the member or, at the desk, to the librarian
        case .loanAlreadyReturned(let title): t("message.loanAlreadyReturned", loan(title))
        case .renewalLimitReached(let title, let max): t("message.renewalLimitReached", loan(title), times(max))
        case .overdueCannotBeRenewed(let title): t("message.overdueCannotBeRenewed", loan(title))
        case .othersWaiting(let title, let count): t("message.othersWaiting", count: count, loan(title), n(count))
        case .loanIDInUse: t("message.loanIDInUse")
        case .loanLimitReached(let max, let active, let requested):
            t("message.loanLimitReached", count: active, n(active), n(max), n(Swift.max(0, max - active)), n(requested))
        case .tooManyInOneRequest(let max): t("message.tooManyInOneRequest", count: max, n(max))
        case .blockedByOverdue(let books): t("message.blockedByOverdue", count: books.count, dueList(books))
        case .bookAskedTwice(let book): t("message.bookAskedTwice", name(book))
        case .memberLoanLimitReached(let member, let max, let active, let requested):
            t("message.memberLoanLimitReached", count: active, member, n(active), n(max), n(Swift.max(0, max - active)), n(requested))
        case .memberBlockedByOverdue(let member, let books):
            t("message.memberBlockedByOverdue", count: books.count, member, dueList(books))
        case .memberHasBookAlready(let member, let book): t("message.memberHasBookAlready", member, name(book))
        case .walkInLimitReached(let name, 0, _): t("message.walkInLoansOff", name)
        case .walkInLimitReached(let name, let max, let active): t("message.walkInLimitReached", count: active, name, n(active), n(max))
        case .walkInHasBookAlready(let walkIn, let book): t("message.walkInHasBookAlready", walkIn, name(book))
        case .noCardYet: t("message.noCardYet")
        // Holds: the line for a book
        case .copyOnShelf(let book, let available): t("message.copyOnShelf", count: available, name(book), n(available))
        case .alreadyHolding(let book, let position?): t("message.alreadyHolding.inLine", name(book), n(position))
        case .alreadyHolding(let book, nil): t("message.alreadyHolding.kept", name(book))
        case .holdOnBorrowedBook(let book): t("message.holdOnBorrowedBook", name(book))
        case .holdLimitReached(let max): t("message.holdLimitReached", count: max, n(max))
        case .copiesKeptForOthers(let book, let count): t("message.copiesKeptForOthers", count: count, name(book), n(count))
        case .copiesKeptCannotGo(let book, let count): t("message.copiesKeptCannotGo", count: count, name(book), n(count))
        case .holdIDInUse: t("message.holdIDInUse")
        // Accounts, sessions and who may do what
        case .unauthenticated: t("message.unauthenticated")
        case .forbidden(.librarianOnly): t("message.forbidden.librarianOnly")
        case .forbidden(.operatorOnly): t("message.forbidden.operatorOnly")
        case .emailTaken: t("message.emailTaken")
        case .usernameTaken: t("message.usernameTaken")
        case .lastLibrarian(let member): t("message.lastLibrarian", member.displayName, member.email)
        case .closingWithLoans(let member, let books): t("message.closingWithLoans", member.displayName, member.email, dueList(books))
        case .closingWithHolds(let member, let titles):
            t("message.closingWithHolds", count: titles.count, member.displayName, member.email, listAnd(titles.map(title)))
        case .librarianOnlyOnCommandLine(let member): t("message.librarianOnlyOnCommandLine", member.displayName, member.email)
        case .invalidCredentials: t("message.invalidCredentials")
        case .loginThrottled(let until): t("message.loginThrottled", formats.moment(until))
        case .tooManyAttempts(let seconds): t("message.tooManyAttempts", count: seconds, n(seconds))
        case .rateLimited(let seconds): t("message.rateLimited", count: seconds, n(seconds))
        case .wrongPassword: t("message.wrongPassword")
        case .resetCodeRefused: t("message.resetCodeRefused")
        // The server and the services outside it
        case .serverBusy: t("message.serverBusy")
        case .serverFailed: t("message.serverFailed")
        case .contention: t("message.contention")
        case .storeUnreachable: t("message.storeUnreachable")
        case .logUnreadable(let position, let type, let part): t("message.logUnreadable", n(position), unreadable(part, type))
        case .staleVersion(let current): t("message.staleVersion", current)
        case .upstreamUnavailable(.openLibrary): t("message.upstreamUnavailable.openLibrary")
        case .upstreamUnavailable(.restCountries): t("message.upstreamUnavailable.restCountries")
        }
    }
}
