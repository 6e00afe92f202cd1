import Application
import Domain
import Foundation
import HTTPTypes
import Hummingbird

/// A page's failure: its status and the words a visitor reads.
struct PageError: Error {
    let status: HTTPResponse.Status
    let view: ErrorView
    var retryAfter: Int?
    /// A rate's state, for a refusal over it (`RateLimit-*`).
    var allowance: RateAllowance?

    init(_ status: HTTPResponse.Status, _ trouble: RequestTrouble) {
        self.status = status
        view = ErrorView(status: status, message: Words.say(.request(trouble)))
    }

    init(_ status: HTTPResponse.Status, message: String, retryAfter: Int? = nil) {
        self.status = status
        view = ErrorView(status: status, message: message)
        self.retryAfter = retryAfter
    }

    /// Whole seconds from now until `date`, at least 1 (a browser's wait, read off the system clock as a client's would be).
    static func seconds(until date: Date) -> Int { max(1, Int(date.timeIntervalSinceNow.rounded(.up))) }

    /// Any error as a page: the domain's refusals in the catalogue's words with the status the API
    /// gives them; a fault as "something went wrong" (its details go to the log only).
    static func of(_ error: any Error) -> PageError {
        switch error {
        case let error as PageError: return error
        case let error as TooManyAttempts:
            return PageError(.tooManyRequests, message: Words.say(error.message), retryAfter: Int(error.retryAfter.rounded(.up)))
        case let error as RateLimited:
            var page = PageError(
                .tooManyRequests, message: Words.say(error.message), retryAfter: max(1, Int(error.retryAfter.rounded(.up))))
            page.allowance = error.allowance
            return page
        case let error as LoginThrottled:
            return PageError(.tooManyRequests, message: Words.say(error.message), retryAfter: Self.seconds(until: error.until))
        case let error as NotFound: return PageError(.notFound, message: Words.say(error.message))
        case let error as Forbidden: return PageError(.forbidden, message: Words.say(error.message))
        // As the API answers them (found by an outside walk: a wrong current password was a 409 here, a 403 there).
        case let error as WrongPassword: return PageError(.forbidden, message: Words.say(error.message))
        case let error as ResetCodeRefused: return PageError(.forbidden, message: Words.say(error.message))
        case let error as NoCardYet: return PageError(.notFound, message: Words.say(error.message))
        case let error as SearchUnavailable: return PageError(.serviceUnavailable, message: Words.say(error.message))
        case let error as CountryListUnavailable: return PageError(.serviceUnavailable, message: Words.say(error.message))
        case let error as InvalidInput: return PageError(.badRequest, message: Words.say(error.message))
        case let error as TooMuchContention: return PageError(.serviceUnavailable, message: Words.say(error.message), retryAfter: 1)
        case let error as StoreUnreachable: return PageError(.serviceUnavailable, message: Words.say(error.message), retryAfter: 5)
        case let error as any MessageConvertible: return PageError(.conflict, message: Words.say(error.message))
        case let error as any HTTPResponseError where error.status == .notFound: return PageError(.notFound, .noSuchPage)
        case let error as any HTTPResponseError where (400..<500).contains(error.status.code): return PageError(error.status, .unreadable)
        default: return PageError(.internalServerError, message: Words.say(.serverFailed))
        }
    }
}

/// The error page's model.
struct ErrorView: Sendable {
    let code: Int
    let heading: String
    let message: String

    init(status: HTTPResponse.Status, message: String) {
        code = status.code
        heading = Words.heading(status)
        self.message = message
    }
}
