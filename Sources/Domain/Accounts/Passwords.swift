import Foundation

// Passwords of the User aggregate: a member changes theirs (the current one checked by the use
// case), a librarian issues a one-time reset code, and the code sets a new password once. The log
// holds the new password's hash and the code's digest, never a password or a code.

/// The member changed their password; only the new hash is recorded, sealed as personal data.
public struct PasswordChanged: Equatable, Sendable, Codable {
    public let user: UserID
    public let passwordHash: Personal<String>
    public init(user: UserID, passwordHash: String) {
        self.user = user
        self.passwordHash = .known(passwordHash)
    }
}

/// A reset code set a new password and was used up; only the new hash is recorded, sealed as
/// personal data.
public struct PasswordReset: Equatable, Sendable, Codable {
    public let user: UserID
    public let passwordHash: Personal<String>
    public init(user: UserID, passwordHash: String) {
        self.user = user
        self.passwordHash = .known(passwordHash)
    }
}

/// A librarian issued a reset code, replacing any older one; only its digest is recorded.
public struct ResetCodeIssued: Equatable, Sendable, Codable {
    public let user: UserID
    public let codeDigest: String
    public let expiresAt: Date
    public init(user: UserID, codeDigest: String, expiresAt: Date) {
        self.user = user
        self.codeDigest = codeDigest
        self.expiresAt = expiresAt
    }
}

/// The reset code an account may still use: the newest issued, unused.
public struct PendingResetCode: Equatable, Sendable {
    public let digest: String
    public let expiresAt: Date
    public init(digest: String, expiresAt: Date) {
        self.digest = digest
        self.expiresAt = expiresAt
    }
}

/// One-time reset codes as people type them: 12 symbols of Crockford's base32 (60 random bits),
/// written in groups of four, `7K3M-Q9TD-X2FB`.
public enum ResetCode {
    /// Crockford's base32: digits and letters but I, L, O and U.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// Symbols in a code.
    public static let length = 12
    /// How long a code may be used after it is issued.
    public static let lifetime: TimeInterval = 24 * 3600

    /// The code for `symbols` (each 0..<32), grouped by four.
    public static func format(_ symbols: [Int]) -> String {
        let letters = symbols.map { alphabet[$0 & 31] }
        return stride(from: 0, to: letters.count, by: 4).map { String(letters[$0..<min($0 + 4, letters.count)]) }
            .joined(separator: "-")
    }

    /// The code as typed, read the way Crockford's base32 reads: any case, spaces and hyphens
    /// ignored, O read as 0, I and L as 1. Nil when it cannot be a code.
    public static func normalized(_ typed: String) -> String? {
        var symbols: [Character] = []
        for character in typed.uppercased() where character != "-" && !character.isWhitespace {
            let read: Character =
                switch character {
                case "O": "0"
                case "I", "L": "1"
                default: character
                }
            guard alphabet.contains(read), symbols.count < length else { return nil }
            symbols.append(read)
        }
        return symbols.count == length ? String(symbols) : nil
    }
}

extension PasswordPolicy {
    /// Every rule `password` breaks, said of the form's `field` (a change's `newPassword`).
    public static func problems(_ password: String, field: String) -> [FieldError] {
        problems(password).map { FieldError(field, $0.problem) }
    }
}

/// The password rules of the User aggregate, each a function returning a rejection or nothing.
public enum PasswordRules {
    /// A reset code works when it is the account's newest, unused and unexpired one. The digests
    /// are compared in constant time, so how long a refusal takes tells nothing about the code.
    public static func resetCodeUsable(_ digest: String, _ account: Account, at now: Date) -> UserRejection? {
        guard let pending = account.resetCode else { return .resetCodeRefused }
        let same = sameDigest(digest, pending.digest)
        return same && now < pending.expiresAt ? nil : .resetCodeRefused
    }

    /// Whether two digests are equal, looking at every byte whatever the first difference.
    public static func sameDigest(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

extension UserAggregate {
    /// A new password from the member: recorded, any unused reset code void, every session but
    /// `kept` (the one asking) closed.
    static func changePassword(_ hash: String, keeping kept: SessionID?, _ account: Account) -> [UserEvent] {
        [.passwordChanged(PasswordChanged(user: account.id, passwordHash: hash))] + closeSessions(of: account, but: kept)
    }

    /// A new password set with a reset code: the code used up and every session closed.
    static func resetPassword(codeDigest: String, _ hash: String, at now: Date, _ account: Account) throws(UserRejection)
        -> [UserEvent]
    {
        if let rejection = PasswordRules.resetCodeUsable(codeDigest, account, at: now) { throw rejection }
        return [.passwordReset(PasswordReset(user: account.id, passwordHash: hash))] + closeSessions(of: account, but: nil)
    }

    /// Closes the account's sessions but `kept`, in a stable order.
    static func closeSessions(of account: Account, but kept: SessionID?) -> [UserEvent] {
        account.sessions.filter { $0 != kept }.sorted { $0.description < $1.description }.map {
            .sessionClosed(SessionClosed(user: account.id, session: $0))
        }
    }
}
