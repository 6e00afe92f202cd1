import Domain
import Foundation

/// Hashes and checks passwords (bcrypt in production). Slow on purpose.
public protocol PasswordHasher: Sendable {
    /// A salted hash of the password, safe to store.
    func hash(_ password: String) async throws -> String
    /// Whether the password matches a hash made by `hash`.
    func verify(_ password: String, against hash: String) async -> Bool
}

/// Makes session tokens and the digests they are stored under.
public protocol SessionTokens: Sendable {
    /// A fresh, unguessable token (at least 256 random bits) and its digest.
    func issue() -> (token: String, digest: String)
    /// The digest (SHA-256, hex) a token is stored and looked up under.
    func digest(_ token: String) -> String
}

/// An account as listed.
public struct AccountSummary: Equatable, Sendable {
    public let id: UserID
    public let email: EmailAddress
    public let displayName: String
    public let country: String
    public let role: Role
    public let registeredAt: Date
    /// The library card's number; nil until the card is issued (accounts older than cards).
    public let cardNumber: CardNumber?
    /// The login name the member chose, if any.
    public let username: Username?
    /// The language the member chose to be spoken to in; nil when they chose none.
    public let language: Language?
    public init(
        id: UserID, email: EmailAddress, displayName: String, country: String, role: Role, registeredAt: Date,
        cardNumber: CardNumber? = nil,
        username: Username? = nil,
        language: Language? = nil
    ) {
        self.username = username
        self.language = language
        self.id = id
        self.email = email
        self.displayName = displayName
        self.country = country
        self.role = role
        self.registeredAt = registeredAt
        self.cardNumber = cardNumber
    }
}

/// An open session, as the session read model holds it.
public struct SessionRecord: Equatable, Sendable {
    public let session: SessionID
    public let user: UserID
    public let expiresAt: Date
    public init(session: SessionID, user: UserID, expiresAt: Date) {
        self.session = session
        self.user = user
        self.expiresAt = expiresAt
    }
}

/// The accounts read model.
public protocol Accounts: Sendable {
    /// One account, or nil.
    func account(_ id: UserID) async throws -> AccountSummary?
    /// Accounts by email, one page.
    func list(_ page: PageRequest) async throws -> Page<AccountSummary>
    /// The open (not logged out) session stored under a token digest, or nil.
    func session(digest: String) async throws -> SessionRecord?
    /// The open session stored under a token digest and its account (nil once closed), as of one
    /// moment; nil when no open session has that digest. What every signed-in request reads first.
    func signedIn(digest: String) async throws -> (session: SessionRecord, account: AccountSummary?)?
    /// Every librarian's account id.
    func librarians() async throws -> [UserID]
}

extension Accounts {
    /// The session, then its account, in two reads (a store that can do both in one overrides it).
    public func signedIn(digest: String) async throws -> (session: SessionRecord, account: AccountSummary?)? {
        guard let session = try await session(digest: digest) else { return nil }
        return (session, try await account(session.user))
    }
}

/// Failed logins, counted per address and client outside the event log (so guessing addresses
/// cannot grow the log) and kept only as long as the throttle looks back.
public protocol LoginFailures: Sendable {
    /// When `email` failed to log in from `client` since `since`, oldest first.
    func failures(email: EmailAddress, client: String, since: Date) async throws -> [Date]
    /// Counts one failure; forgets failures older than `forgetBefore` and keeps the table bounded.
    func record(email: EmailAddress, client: String, at: Date, forgetBefore: Date) async throws
    /// Forgets the failures of `email` from `client`, after that client logged in.
    func clear(email: EmailAddress, client: String) async throws
    /// Counts the failures of `old` as failures of `new`, after the account changed its address:
    /// the throttle follows the account, and whoever takes `old` later starts with none.
    func move(from old: EmailAddress, to new: EmailAddress) async throws
    /// Forgets every failure of `email`, from every client (its account closed, its data erased).
    func forget(email: EmailAddress) async throws
}

/// Makes one-time password reset codes and the digests they are stored under.
public protocol ResetCodes: Sendable {
    /// A fresh code of `ResetCode.length` random symbols (60 bits from the system's generator),
    /// written as `ResetCode.format` writes it, and its digest.
    func issue() -> (code: String, digest: String)
    /// The digest (SHA-256, hex) a code in `ResetCode.normalized` form is stored and compared under.
    func digest(_ normalizedCode: String) -> String
}
