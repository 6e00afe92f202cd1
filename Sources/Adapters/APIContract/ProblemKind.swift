import Application
import Domain

/// The status, type and title of the problem each application error is answered with; its
/// detail is the error's message, worded by the catalogue.
struct ProblemKind {
    let status: Int
    let slug: String
    let title: String
    /// Field errors to list besides the detail.
    var fields: [FieldError]? = nil

    static let notFound = ProblemKind(status: 404, slug: "not-found", title: "Not found")
    /// A reset code that does not work (never why, nor whether the address has an account).
    static let resetCodeRefused = ProblemKind(status: 403, slug: "reset-code-refused", title: "Reset code refused")

    init(status: Int, slug: String, title: String, fields: [FieldError]? = nil) {
        self.status = status
        self.slug = slug
        self.title = title
        self.fields = fields
    }

    /// The kind of problem `error` is, or nil when it is none a caller should see.
    init?(_ error: any MessageConvertible) {
        switch error {
        case let error as BookRefused: self = Self.of(error)
        case let error as LoanRefused: self = Self.of(error)
        case is NotFound, is NoCardYet: self = .notFound
        case is TooMuchContention: self.init(status: 503, slug: "contention", title: "Busy")
        case is StoreUnreachable: self.init(status: 503, slug: "unavailable", title: "Service Unavailable")
        case is StaleVersion: self.init(status: 412, slug: "stale-version", title: "Precondition Failed")
        case is Unauthenticated: self.init(status: 401, slug: "unauthenticated", title: "Unauthorized")
        case is InvalidCredentials: self.init(status: 401, slug: "invalid-credentials", title: "Unauthorized")
        case is Forbidden: self.init(status: 403, slug: "forbidden", title: "Forbidden")
        case is WrongPassword: self.init(status: 403, slug: "wrong-password", title: "Wrong password")
        case is ResetCodeRefused: self = .resetCodeRefused
        case let error as AccountRefused: self = Self.of(error)
        case is EmailTaken: self.init(status: 409, slug: "email-taken", title: "Conflict", fields: [FieldError("email", .taken)])
        case is UsernameTaken: self.init(status: 409, slug: "username-taken", title: "Conflict", fields: [FieldError("username", .taken)])
        case is SearchUnavailable: self.init(status: 503, slug: "search-unavailable", title: "Service Unavailable")
        case is CountryListUnavailable: self.init(status: 503, slug: "countries-unavailable", title: "Service Unavailable")
        case is LoginThrottled: self.init(status: 429, slug: "login-throttled", title: "Too Many Requests")
        case is TooManyAttempts: self.init(status: 429, slug: "too-many-attempts", title: "Too Many Requests")
        case is RateLimited: self.init(status: 429, slug: "rate-limited", title: "Too Many Requests")
        case let error as BackupRefused: self = Self.of(error)
        case let error as RetryRefused: self = Self.of(error)
        case let error as AppKeyRefused:
            self = error.problem == .unknownKey ? .notFound : ProblemKind(status: 409, slug: "app-key-refused", title: "Conflict")
        case let error as ClosingRefused:
            self =
                error.rejection == .lastLibrarian
                ? ProblemKind(status: 409, slug: "last-librarian", title: "The last librarian")
                : ProblemKind(status: 409, slug: "account-stays-open", title: "The account stays open")
        default:
            // The log's own adapters say an event they cannot read back with this message.
            guard case .logUnreadable = error.message else { return nil }
            self.init(status: 409, slug: "conflict", title: "Conflicts with the library's state")
        }
    }

    private static func of(_ refused: BookRefused) -> ProblemKind {
        switch refused.rejection {
        case .invalid: ProblemKind(status: 400, slug: "validation", title: "Invalid input")
        case .notInCatalogue: .notFound
        case .alreadyInCatalogue, .copiesOnLoan, .fewerCopiesThanOnLoan, .noCopyAvailable, .duplicateISBN:
            ProblemKind(status: 409, slug: "conflict", title: "Conflicts with the library's state")
        }
    }

    private static func of(_ refused: AccountRefused) -> ProblemKind {
        switch refused.rejection {
        case .notRegistered: .notFound
        case .alreadyRegistered: ProblemKind(status: 409, slug: "email-taken", title: "Conflict", fields: [FieldError("email", .taken)])
        case .resetCodeRefused: .resetCodeRefused
        case .lastLibrarian: ProblemKind(status: 409, slug: "last-librarian", title: "The last librarian")
        }
    }

    /// The command line's backups and restores (no HTTP route runs them): a missing backup is not
    /// found, a lock file that cannot be opened is trouble on the server, the rest are refusals.
    private static func of(_ refused: BackupRefused) -> ProblemKind {
        switch refused.problem {
        case .backupMissing: .notFound
        case .lockUnusable: ProblemKind(status: 503, slug: "unavailable", title: "Service Unavailable")
        case .fileExists, .sameAsLibrary, .libraryFile, .notALibrary, .backupKeyMissing, .keyUnusable, .doesNotVerify, .libraryInUse:
            ProblemKind(status: 409, slug: "backup-refused", title: "Backup or restore refused")
        }
    }

    /// Safe retries (`Idempotency-Key`): a bad key, a key of another request, a retry too early or
    /// of a request whose answer was lost.
    private static func of(_ refused: RetryRefused) -> ProblemKind {
        switch refused.trouble {
        case .badKey: ProblemKind(status: 400, slug: "idempotency-key-invalid", title: "Invalid Idempotency-Key")
        case .keyReused: ProblemKind(status: 422, slug: "idempotency-key-reused", title: "Idempotency-Key used for another request")
        case .inProgress: ProblemKind(status: 409, slug: "request-in-progress", title: "Request still in progress")
        case .answerNotKept: ProblemKind(status: 409, slug: "request-already-recorded", title: "Request already recorded")
        }
    }

    private static func of(_ refused: LoanRefused) -> ProblemKind {
        if refused.forHold, case .patron = refused.rejection {
            return ProblemKind(status: 409, slug: "hold-refused", title: "Hold refused")
        }
        return switch refused.rejection {
        case .loan(.noSuchLoan), .hold(.noSuchHold): .notFound
        case .patron(.alreadyBorrowed), .patron(.holdLimitReached):
            ProblemKind(status: 409, slug: "hold-refused", title: "Hold refused")
        // Every copy on the shelf kept for members who waited refuses a loan, not a hold the caller
        // placed (found by an outside walk: a client branching on `loan-refused` misread it).
        case .loan(.alreadyReturned), .loan(.renewalLimitReached), .loan(.overdueCannotBeRenewed), .loan(.idInUse), .loan(.othersWaiting),
            .patron, .walkIn, .hold(.setAsideForOthers):
            ProblemKind(status: 409, slug: "loan-refused", title: "Loan refused")
        // Fewer copies than are kept for members: the catalogue's edit conflicts, as with copies on loan.
        case .hold(.copiesSetAside): ProblemKind(status: 409, slug: "conflict", title: "Conflicts with the library's state")
        case .hold(.copyOnShelf), .hold(.alreadyHolding), .hold(.idInUse):
            ProblemKind(status: 409, slug: "hold-refused", title: "Hold refused")
        }
    }
}
