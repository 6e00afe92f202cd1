import Application
import Domain
import Foundation

/// One key per `Message` case, so a test can walk them all.
enum MessageKey: CaseIterable {
    case notFound, invalidInput, badSetting, cannotListen, integrity, bookAlreadyInCatalogue, copiesOnLoan, fewerCopiesThanOnLoan,
        noCopyAvailable
    case duplicateISBN, loanAlreadyReturned, renewalLimitReached, overdueCannotBeRenewed, othersWaiting, loanIDInUse, loanLimitReached
    case tooManyInOneRequest, blockedByOverdue, bookAskedTwice, copyOnShelf, alreadyHolding, holdOnBorrowedBook, holdLimitReached
    case copiesKeptForOthers, copiesKeptCannotGo, holdIDInUse, unauthenticated, forbidden, emailTaken, usernameTaken, invalidCredentials
    case wrongPassword, resetCodeRefused
    case lastLibrarian, librarianOnlyOnCommandLine
    case closingWithLoans, closingWithHolds
    case loginThrottled, tooManyAttempts, request, serverBusy, serverFailed, contention, storeUnreachable, logUnreadable, staleVersion,
        rateLimited,
        upstreamUnavailable, done
    case backup
    case memberLoanLimitReached, memberBlockedByOverdue, memberHasBookAlready, walkInLimitReached, walkInHasBookAlready, noCardYet, appKey
    case appRequest
    case retry
}

/// A sample of every message; `key(of:)` has no default, so a new case needs a key (and a sample).
enum MessageSamples {
    static let book = BookID(UUID())
    static let hobbit = BookName(book, title: "The Hobbit")

    static func key(of message: Message) -> MessageKey {
        switch message {
        case .notFound: .notFound
        case .memberLoanLimitReached: .memberLoanLimitReached
        case .memberBlockedByOverdue: .memberBlockedByOverdue
        case .memberHasBookAlready: .memberHasBookAlready
        case .walkInLimitReached: .walkInLimitReached
        case .walkInHasBookAlready: .walkInHasBookAlready
        case .appKey: .appKey
        case .appRequest: .appRequest
        case .noCardYet: .noCardYet
        case .invalidInput: .invalidInput
        case .badSetting: .badSetting
        case .cannotListen: .cannotListen
        case .integrity: .integrity
        case .backup: .backup
        case .bookAlreadyInCatalogue: .bookAlreadyInCatalogue
        case .copiesOnLoan: .copiesOnLoan
        case .fewerCopiesThanOnLoan: .fewerCopiesThanOnLoan
        case .noCopyAvailable: .noCopyAvailable
        case .duplicateISBN: .duplicateISBN
        case .loanAlreadyReturned: .loanAlreadyReturned
        case .renewalLimitReached: .renewalLimitReached
        case .overdueCannotBeRenewed: .overdueCannotBeRenewed
        case .othersWaiting: .othersWaiting
        case .loanIDInUse: .loanIDInUse
        case .loanLimitReached: .loanLimitReached
        case .tooManyInOneRequest: .tooManyInOneRequest
        case .blockedByOverdue: .blockedByOverdue
        case .bookAskedTwice: .bookAskedTwice
        case .copyOnShelf: .copyOnShelf
        case .alreadyHolding: .alreadyHolding
        case .holdOnBorrowedBook: .holdOnBorrowedBook
        case .holdLimitReached: .holdLimitReached
        case .copiesKeptForOthers: .copiesKeptForOthers
        case .copiesKeptCannotGo: .copiesKeptCannotGo
        case .holdIDInUse: .holdIDInUse
        case .unauthenticated: .unauthenticated
        case .forbidden: .forbidden
        case .emailTaken: .emailTaken
        case .usernameTaken: .usernameTaken
        case .invalidCredentials: .invalidCredentials
        case .loginThrottled: .loginThrottled
        case .tooManyAttempts: .tooManyAttempts
        case .wrongPassword: .wrongPassword
        case .resetCodeRefused: .resetCodeRefused
        case .lastLibrarian: .lastLibrarian
        case .librarianOnlyOnCommandLine: .librarianOnlyOnCommandLine
        case .closingWithLoans: .closingWithLoans
        case .closingWithHolds: .closingWithHolds
        case .request: .request
        case .retry: .retry
        case .serverBusy: .serverBusy
        case .serverFailed: .serverFailed
        case .contention: .contention
        case .storeUnreachable: .storeUnreachable
        case .logUnreadable: .logUnreadable
        case .staleVersion: .staleVersion
        case .rateLimited: .rateLimited
        case .upstreamUnavailable: .upstreamUnavailable
        case .done: .done
        }
    }

    static func sample(_ key: MessageKey) -> Message {
        switch key {
        case .notFound: .notFound(.book, id: book.description)
        case .invalidInput: .invalidInput([FieldError("title", .required), FieldError("copies", .noCopies(wouldBe: 0))])
        case .badSetting:
            .badSetting("SHELFMARK_LOAN_DAYS", value: "inf", .numberOutOfRange(min: 0.001, max: 3650, whole: false, unit: .days))
        case .cannotListen: .cannotListen(.portInUse(host: "127.0.0.1", port: 8080))
        case .integrity: .integrity(.keyFileMissing(path: "/var/lib/shelfmark/library.key", keyedFrom: 1))
        case .backup:
            .backup(
                .doesNotVerify("/backups/library.sqlite", failed: AuditCheck(.hashChain, passed: false, .exportChainBreaks(position: 4))))
        case .bookAlreadyInCatalogue: .bookAlreadyInCatalogue(hobbit)
        case .copiesOnLoan: .copiesOnLoan(hobbit, onLoan: 1)
        case .fewerCopiesThanOnLoan: .fewerCopiesThanOnLoan(hobbit, requested: 1, onLoan: 2)
        case .noCopyAvailable: .noCopyAvailable(hobbit, copies: 3)
        case .duplicateISBN: .duplicateISBN("9780261103344", existing: hobbit)
        case .loanAlreadyReturned: .loanAlreadyReturned(title: "The Hobbit")
        case .renewalLimitReached: .renewalLimitReached(title: "The Hobbit", max: 2)
        case .overdueCannotBeRenewed: .overdueCannotBeRenewed(title: nil)
        case .othersWaiting: .othersWaiting(title: "The Hobbit", count: 2)
        case .loanIDInUse: .loanIDInUse
        case .loanLimitReached: .loanLimitReached(max: 5, active: 3, requested: 3)
        case .tooManyInOneRequest: .tooManyInOneRequest(max: 5)
        case .blockedByOverdue: .blockedByOverdue([OverdueBook(title: "The Hobbit", dueAt: Date(timeIntervalSince1970: 1_796_601_600))])
        case .bookAskedTwice: .bookAskedTwice(hobbit)
        case .memberLoanLimitReached: .memberLoanLimitReached(member: "Ada Lovelace", max: 5, active: 4, requested: 2)
        case .memberBlockedByOverdue:
            .memberBlockedByOverdue(
                member: "Ada Lovelace", [OverdueBook(title: "The Hobbit", dueAt: Date(timeIntervalSince1970: 1_796_601_600))])
        case .memberHasBookAlready: .memberHasBookAlready(member: "Ada Lovelace", hobbit)
        case .walkInLimitReached: .walkInLimitReached(name: "Mrs Hudson", max: 5, active: 5)
        case .walkInHasBookAlready: .walkInHasBookAlready(name: "Mrs Hudson", hobbit)
        case .noCardYet: .noCardYet
        case .appKey: .appKey(.notALibrarian(email: "ada@example.org"))
        case .appRequest: .appRequest(.noBookNumbered(7))
        case .copyOnShelf: .copyOnShelf(hobbit, available: 1)
        case .alreadyHolding: .alreadyHolding(hobbit, position: 3)
        case .holdOnBorrowedBook: .holdOnBorrowedBook(hobbit)
        case .holdLimitReached: .holdLimitReached(max: 5)
        case .copiesKeptForOthers: .copiesKeptForOthers(hobbit, count: 2)
        case .copiesKeptCannotGo: .copiesKeptCannotGo(hobbit, count: 1)
        case .holdIDInUse: .holdIDInUse
        case .unauthenticated: .unauthenticated
        case .forbidden: .forbidden(.librarianOnly)
        case .emailTaken: .emailTaken
        case .usernameTaken: .usernameTaken
        case .invalidCredentials: .invalidCredentials
        case .loginThrottled: .loginThrottled(until: Date(timeIntervalSince1970: 1_796_601_600))
        case .tooManyAttempts: .tooManyAttempts(retryAfterSeconds: 30)
        case .wrongPassword: .wrongPassword
        case .resetCodeRefused: .resetCodeRefused
        case .lastLibrarian: .lastLibrarian(MemberName(displayName: "Ada Lovelace", email: "ada@example.org"))
        case .librarianOnlyOnCommandLine: .librarianOnlyOnCommandLine(actingAs: MemberName(displayName: "Ada", email: "ada@example.org"))
        case .closingWithLoans:
            .closingWithLoans(
                MemberName(displayName: "Ada", email: "ada@example.org"),
                [OverdueBook(title: "The Hobbit", dueAt: Date(timeIntervalSince1970: 1_796_601_600)), OverdueBook(title: nil, dueAt: .now)])
        case .closingWithHolds: .closingWithHolds(MemberName(displayName: "Ada", email: "ada@example.org"), titles: ["Dune", nil])
        case .request: .request(.methodNotAllowed(method: "PUT", path: "/api/v1/books", allowed: ["GET", "POST"]))
        case .retry: .retry(.answerNotKept(recordedAt: Date(timeIntervalSince1970: 1_796_601_600)))
        case .serverBusy: .serverBusy
        case .serverFailed: .serverFailed
        case .contention: .contention
        case .storeUnreachable: .storeUnreachable
        case .logUnreadable: .logUnreadable(position: 27, type: "book.added.v1", part: .eventID)
        case .staleVersion: .staleVersion(current: "7.2")
        case .rateLimited: .rateLimited(retryAfterSeconds: 30)
        case .upstreamUnavailable: .upstreamUnavailable(.openLibrary)
        case .done: .done(.withdrawn(count: 2))
        }
    }
}
