import Domain
import Foundation

/// The checks of an account's secrets under way right now (a password hashed, a reset code
/// compared), per address and client: each counts as a failure until it ends, so guesses sent in
/// parallel meet the login throttle as consecutive ones do, and no more than `maxFailures` are
/// checked in a window however many arrive at once (without this, every request of a burst read
/// the failures before any was recorded). In memory: servers sharing one database each hold their own.
final class SecretChecks: @unchecked Sendable {  // every access to `running` holds `lock`
    private let lock = NSLock()
    private var running: [Key: Int] = [:]

    fileprivate struct Key: Hashable, Sendable {
        let email: EmailAddress
        let place: String
    }

    /// One check under way; `end()` it whatever its outcome, once its failure (if any) is recorded.
    struct Check: Sendable {
        fileprivate let checks: SecretChecks
        fileprivate let key: Key

        func end() { checks.end(key) }
    }

    /// Begins a check of `email`'s secrets from `place`, refused (`LoginThrottled`) when the
    /// failures counted in the window and the checks already under way reach the throttle's limit.
    func begin(_ email: EmailAddress, from place: String, failures: [Date], throttle: LoginThrottle, now: Date) throws -> Check {
        let key = Key(email: email, place: place)
        let refusal = lock.withLock { () -> Date? in
            let underWay = running[key, default: 0]
            // Each check under way counts as a failure at this moment, as it will be if it fails.
            if let until = throttle.closedUntil(failures + Array(repeating: now, count: underWay), now: now) { return until }
            running[key] = underWay + 1
            return nil
        }
        if let refusal { throw LoginThrottled(until: refusal) }
        return Check(checks: self, key: key)
    }

    private func end(_ key: Key) {
        lock.withLock {
            let left = running[key, default: 1] - 1
            running[key] = left > 0 ? left : nil
        }
    }
}
