import Domain
import Foundation

/// Everything Shelfmark tells a person, as a value: what happened and the facts to say it with,
/// never the words. A `MessageCatalogue` words every case in one language; each adapter renders
/// the message of an error (`MessageConvertible`) with the catalogue it picked.
public enum Message: Equatable, Sendable {
    // Looking things up
    /// Nothing of this kind has this id (or the caller may not know that it has).
    case notFound(NotFound.Thing, id: String)

    // Input
    /// One or more fields are invalid; all of them are listed.
    case invalidInput([FieldError])
    /// A setting (environment variable or option) that cannot be used, with the value given.
    case badSetting(String, value: String?, FieldProblem)
    /// `serve` cannot listen where it was told to.
    case cannotListen(ListenProblem)
    /// The log's chain key or anchor file cannot be used.
    case integrity(IntegrityProblem)
    /// A backup or a restore was refused, and why.
    case backup(BackupProblem)

    // The catalogue
    /// A book with this id exists already, with other details.
    case bookAlreadyInCatalogue(BookName)
    /// A book cannot be withdrawn while copies are lent.
    case copiesOnLoan(BookName, onLoan: Int)
    /// The copies cannot fall below the copies lent.
    case fewerCopiesThanOnLoan(BookName, requested: Int, onLoan: Int)
    /// Every copy is out on loan.
    case noCopyAvailable(BookName, copies: Int)
    /// The catalogue has a book with this ISBN already.
    case duplicateISBN(String, existing: BookName)

    // Circulation
    /// The loan was returned already.
    case loanAlreadyReturned(title: String?)
    /// The loan was renewed as often as allowed.
    case renewalLimitReached(title: String?, max: Int)
    /// An overdue loan is returned, not renewed.
    case overdueCannotBeRenewed(title: String?)
    /// A loan is not renewed while `count` members wait for its book.
    case othersWaiting(title: String?, count: Int)
    /// Another loan has this id.
    case loanIDInUse
    /// Active loans and the request together pass the limit.
    case loanLimitReached(max: Int, active: Int, requested: Int)
    /// More books in one request than a member may have at all.
    case tooManyInOneRequest(max: Int)
    /// A member with overdue loans borrows nothing until they are returned.
    case blockedByOverdue([OverdueBook])
    /// A book asked for twice, or already borrowed by the member.
    case bookAskedTwice(BookName)

    // At the front desk (said to the librarian, naming the member)
    /// The member's active loans and the request together pass the limit.
    case memberLoanLimitReached(member: String, max: Int, active: Int, requested: Int)
    /// The member has overdue loans, so borrows nothing until they are returned.
    case memberBlockedByOverdue(member: String, [OverdueBook])
    /// A book asked for twice, or already on loan to the member.
    case memberHasBookAlready(member: String, BookName)
    /// A walk-in borrower (by name) has as many books out as walk-in borrowers may.
    case walkInLimitReached(name: String, max: Int, active: Int)
    /// A walk-in borrower (by the name the desk knows them by) has a copy of the book already.
    case walkInHasBookAlready(name: String, BookName)
    /// An app key (the capability in an old client app's URL) cannot be issued, found or used.
    case appKey(AppKeyProblem)
    /// The member's account has no library card yet (registered before cards).
    case noCardYet

    // Holds
    /// A hold is for a book with no copy free: this one has `available` on the shelf.
    case copyOnShelf(BookName, available: Int)
    /// The member is in the book's line already: at `position`, or (nil) a copy is kept for them.
    case alreadyHolding(BookName, position: Int?)
    /// No hold on a book the member has on loan.
    case holdOnBorrowedBook(BookName)
    /// The member has as many holds as allowed.
    case holdLimitReached(max: Int)
    /// Every copy on the shelf is kept for members who were waiting (`count` copies).
    case copiesKeptForOthers(BookName, count: Int)
    /// Copies kept for waiting members cannot be removed.
    case copiesKeptCannotGo(BookName, count: Int)
    /// Another hold has this id.
    case holdIDInUse

    // Accounts
    /// No valid session.
    case unauthenticated
    /// The caller is known but may not do this.
    case forbidden(Forbidden.Reason)
    /// The address is taken by another account.
    case emailTaken
    case usernameTaken
    /// The member is the library's last librarian, so cannot stop being one or close the account.
    case lastLibrarian(MemberName)
    /// An account is not closed while books are on loan to its member (by title, with due dates).
    case closingWithLoans(MemberName, [OverdueBook])
    /// An account is not closed while its member waits for books (their titles).
    case closingWithHolds(MemberName, titles: [String?])
    /// A librarian's operation, refused to the member the command line acts as: who, and how to switch.
    case librarianOnlyOnCommandLine(actingAs: MemberName)
    /// Wrong email or password (never which).
    case invalidCredentials
    /// Too many failed logins for one address from one client.
    case loginThrottled(until: Date)
    /// Too many logins or signups from one client address.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// Too many searches or changes from one address or account; the next may come after this many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// The current password typed to change it is not the account's.
    case wrongPassword
    /// A reset code that does not work for this address (never why, nor whether the account exists).
    case resetCodeRefused

    // The service and the outside world
    /// A request the HTTP transport could not take, and why.
    case request(RequestTrouble)
    /// A request sent with an `Idempotency-Key` that is not run, and why.
    case retry(RetryTrouble)
    /// The server has no room for a request's body just now.
    case serverBusy
    /// The server failed on a request; the cause is in its log.
    case serverFailed
    /// The data kept changing under the request.
    case contention
    /// The library's database did not answer.
    case storeUnreachable
    /// The log's event at `position` cannot be read back: the database was changed outside
    /// Shelfmark (`UnreadableEvent`, in the stores' adapters).
    case logUnreadable(position: Int64, type: String, part: AuditFinding.EventPart)
    /// The record changed since the client read it (`If-Match`): its version now.
    case staleVersion(current: String)
    /// A source of book records outside the library cannot be reached; the local catalogue still works.
    case upstreamUnavailable(Upstream)

    /// A confirmation of what a command did (the CLI's).
    case done(Confirmation)
    /// A request from an old client app (under an app key) cannot be read, in that app's terms.
    case appRequest(AppRequestProblem)
}

/// A book as a message names it: by its title when it is known, else by its id.
public struct BookName: Equatable, Sendable {
    public let id: BookID
    public let title: String?
    public init(_ id: BookID, title: String?) {
        self.id = id
        self.title = title
    }
}

/// An overdue loan as the overdue block lists it.
public struct OverdueBook: Equatable, Sendable {
    public let title: String?
    public let dueAt: Date
    public init(title: String?, dueAt: Date) {
        self.title = title
        self.dueAt = dueAt
    }
}

/// Why the HTTP transport could not take a request (before any operation ran).
public enum RequestTrouble: Equatable, Sendable {
    /// Nothing is at this path.
    case noSuchPath(String)
    /// The path does not answer this method; it answers those listed.
    case methodNotAllowed(method: String, path: String, allowed: [String])
    /// The address is not a valid URL (raw non-ASCII, stray percent signs).
    case malformedURL
    /// The body is not JSON.
    case notJSON
    /// A value of the body cannot be read (a number too large for its field).
    case valueUnreadable
    /// The request is not HTTP/1.1.
    case notHTTP
    /// The headers are too large.
    case headersTooLarge
    /// The body is JSON but not an object.
    case notAnObject
    /// The operation needs a body and none came.
    case bodyRequired
    /// The body is not sent as `application/json`.
    case unsupportedMediaType
    /// The client accepts no type the answer can be sent as.
    case notAcceptable
    /// Nothing more precise is known.
    case unreadable
    /// The database does not answer.
    case storageUnavailable
    /// The Content-Length header is not a number.
    case badContentLength
    /// The body ended early.
    case bodyIncomplete
    /// The body is larger than `max` bytes.
    case bodyTooLarge(max: Int)
    /// The body did not arrive within `seconds`.
    case bodyTooSlow(seconds: Int64)
    /// One JSON object names a key twice.
    case duplicateKey(String)
    /// The request has this many `Content-Type` fields, where a body has one media type.
    case contentTypes(Int)
    /// The body is said to be in this character set, not UTF-8.
    case notUTF8(charset: String)
    /// The contract document is not bundled with this build.
    case contractMissing
    /// No page is at this address (the web pages).
    case noSuchPage
    /// A page sent something other than a form.
    case notAForm
    /// A form is larger than `max` bytes.
    case formTooLarge(max: Int)
    /// A form came without this browser's form token: from another site, or from a page older than the last login.
    case staleForm
}

/// Why the log's chain key file or anchor file cannot be used with this database.
public enum IntegrityProblem: Equatable, Sendable {
    /// The key file is there but cannot be read.
    case keyFileUnreadable(path: String)
    /// The file is not a Shelfmark chain key file.
    case notAKeyFile(path: String)
    /// A key file is there already where a new one is written.
    case keyFileExists(path: String)
    /// The key file cannot be created (its folder is missing or not writable).
    case keyFileUncreatable(path: String)
    /// The key file could not be written completely.
    case keyFileUnwritable(path: String)
    /// The log is keyed and no key file was given.
    case keyNeeded(keyedFrom: Int64)
    /// The key file keys from another position than this log's next: another database's.
    case keyOfAnotherDatabase(path: String, keyedFrom: Int64, head: Int64)
    /// The log is keyed with a key file that is missing.
    case keyFileMissing(path: String, keyedFrom: Int64)
    /// The key file is not the one the database records.
    case keyDisagrees(path: String, fileKeyedFrom: Int64, fileKey: String, keyedFrom: Int64, key: String)
    /// The anchor file cannot be appended to.
    case anchorFileUnwritable(path: String)
    /// An anchor is signed with the chain key, and the log has none.
    case anchorNeedsKey
}

/// Why `serve` cannot listen on an address and port.
public enum ListenProblem: Equatable, Sendable {
    /// Another program listens on this port.
    case portInUse(host: String, port: Int)
    /// Ports below 1024 need privileges.
    case portNeedsPrivilege(host: String, port: Int)
    /// The address belongs to no interface of this machine.
    case notAnAddressHere(host: String)
    /// The host name does not resolve.
    case unknownHost(String)
    /// One of these, on the BitBooks protocol's address (`--bitbooks-port`, `--bitbooks-host`).
    indirect case bitbooks(ListenProblem)
}

/// A service outside the library that a message can name.
public enum Upstream: String, Equatable, Sendable, CaseIterable {
    case openLibrary
    case restCountries
}
