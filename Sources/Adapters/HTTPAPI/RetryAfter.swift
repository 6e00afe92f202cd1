import APIContract
import Application
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// How long a client should wait before asking again, sent with every 503 and 429: what the
/// error knows (a throttle knows when it lifts), else a pause fitting the kind of trouble.
enum RetryAfter {
    /// Seconds for a conflict that a retry soon will most likely not meet again.
    static let contention = 1
    /// Seconds for any other 503 (the database not answering) or 429.
    static let other = 5

    /// Sets `Retry-After` on a 503 or 429 that has none.
    static func set(on response: inout Response, for error: (any Error)?) {
        guard response.status == .serviceUnavailable || response.status == .tooManyRequests, response.headers[.retryAfter] == nil
        else { return }
        response.headers[.retryAfter] = String(error.flatMap(seconds) ?? other)
    }

    /// Whole seconds, at least one and at most a day, for errors that tell.
    static func seconds(for error: any Error) -> Int? {
        let error = (error as? ServerError)?.underlyingError ?? error
        let seconds: TimeInterval
        switch error {
        case let error as LoginThrottled: seconds = error.until.timeIntervalSinceNow
        case let error as TooManyAttempts: seconds = error.retryAfter
        case let error as RateLimited: seconds = error.retryAfter
        case let error as ServerBusy: seconds = error.retryAfter
        case is TooMuchContention: seconds = TimeInterval(contention)
        case let error as SearchUnavailable: seconds = error.retryAfter
        case let error as CountryListUnavailable: seconds = error.retryAfter
        case is StorageUnavailable, is StoreUnreachable: seconds = TimeInterval(other)
        default: return nil
        }
        return max(1, Int(min(seconds, 86_400).rounded(.up)))
    }
}

/// The database did not answer the health check.
struct StorageUnavailable: ProblemConvertible {
    var problem: Problem {
        Problem(status: 503, slug: "unavailable", title: "Storage unavailable", detail: TransportTexts.storageUnavailable)
    }
}

/// The headers an error's answer carries beside its problem document: `Retry-After` on a 503 or
/// 429, the rate's state on a rate-limited request, the current `ETag` on a stale edit.
enum ErrorHeaders {
    static func set(on response: inout Response, for error: any Error) {
        switch (error as? ServerError)?.underlyingError ?? error {
        case let stale as StaleVersion: response.headers[.eTag] = EntityTags.tag(stale.current)
        case let limited as RateLimited: RateHeaders.set(limited.allowance, on: &response.headers)
        default: break
        }
        RetryAfter.set(on: &response, for: error)
    }
}

/// The `RateLimit-*` headers of an answer (`RateAllowance.fields`).
enum RateHeaders {
    static func set(_ allowance: RateAllowance, on headers: inout HTTPFields) {
        for (name, value) in allowance.fields { HTTPField.Name(name).map { headers[$0] = value } }
    }
}
