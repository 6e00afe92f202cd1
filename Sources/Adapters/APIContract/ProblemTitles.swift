import Domain
import Wording

/// The titles of the problem documents, in the reader's language (`Reader.language`): a short
/// summary of the kind of problem, one per type. The type's URN never changes with the language.
enum ProblemTitles {
    /// The title of the problem type `slug` in the reader's language, or `fallback` for a type
    /// this table does not know (the test over every type the sources name keeps that from happening).
    static func title(_ slug: String, or fallback: String) -> String {
        switch slug {
        case "not-found": t("problem.notFound")
        case "reset-code-refused": t("problem.resetCodeRefused")
        case "contention": t("problem.contention")
        case "stale-version": t("problem.staleVersion")
        case "unauthenticated": t("problem.unauthenticated")
        case "invalid-credentials": t("problem.invalidCredentials")
        case "forbidden": t("problem.forbidden")
        case "wrong-password": t("problem.wrongPassword")
        case "email-taken": t("problem.emailTaken")
        case "username-taken": t("problem.usernameTaken")
        case "search-unavailable": t("problem.searchUnavailable")
        case "countries-unavailable": t("problem.countriesUnavailable")
        case "login-throttled": t("problem.loginThrottled")
        case "too-many-attempts": t("problem.tooManyAttempts")
        case "rate-limited": t("problem.rateLimited")
        case "app-key-refused": t("problem.appKeyRefused")
        case "last-librarian": t("problem.lastLibrarian")
        case "account-stays-open": t("problem.accountStaysOpen")
        case "validation": t("problem.validation")
        case "conflict": t("problem.conflict")
        case "unavailable": t("problem.unavailable")
        case "backup-refused": t("problem.backupRefused")
        case "hold-refused": t("problem.holdRefused")
        case "loan-refused": t("problem.loanRefused")
        case "internal": t("problem.internal")
        case "too-large": t("problem.tooLarge")
        case "bad-request": t("problem.badRequest")
        case "busy": t("problem.busy")
        case "too-slow": t("problem.tooSlow")
        case "unsupported-media-type": t("problem.unsupportedMediaType")
        case "not-acceptable": t("problem.notAcceptable")
        case "method-not-allowed": t("problem.methodNotAllowed")
        case "malformed-request": t("problem.malformedRequest")
        case "usage": t("problem.usage")
        case "configuration": t("problem.configuration")
        case "idempotency-key-invalid": t("problem.idempotencyKeyInvalid")
        case "idempotency-key-reused": t("problem.idempotencyKeyReused")
        case "request-in-progress": t("problem.requestInProgress")
        case "request-already-recorded": t("problem.requestAlreadyRecorded")
        default: fallback
        }
    }

    /// Every type the table knows, for the test that each has a title in both languages.
    static let known: [String] = [
        "not-found", "reset-code-refused", "contention", "unauthenticated", "invalid-credentials", "forbidden", "wrong-password",
        "email-taken", "username-taken", "search-unavailable", "countries-unavailable", "login-throttled", "too-many-attempts",
        "app-key-refused", "last-librarian", "account-stays-open", "validation", "conflict", "unavailable", "backup-refused",
        "hold-refused", "loan-refused", "internal", "too-large", "bad-request", "busy", "too-slow", "unsupported-media-type",
        "not-acceptable", "method-not-allowed", "malformed-request", "usage", "configuration", "stale-version", "rate-limited",
        "idempotency-key-invalid", "idempotency-key-reused", "request-in-progress", "request-already-recorded",
    ]
}

/// The contract's own texts (problem titles, the tail of a long list), this target's `en.lproj`
/// and `fr.lproj`, in the reader's language.
let contractTexts = Texts(bundle: .module)

/// The contract's text `key` in the reader's language, its placeholders filled with `arguments`.
func t(_ key: String, _ arguments: String...) -> String { contractTexts.text(key, in: Reader.language, arguments) }

extension Problem {
    /// The problem types (slugs) whose titles the contract has in every language.
    public static var titledTypes: Set<String> { Set(ProblemTitles.known) }
}
