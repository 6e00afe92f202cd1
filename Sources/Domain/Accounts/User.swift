import Foundation

// The User aggregate: an account, its role and its login sessions.

/// What happened to an account. Stored in the log; never change a case's meaning.
public enum UserEvent: Equatable, Sendable {
    case registered(UserRegistered)
    case roleChanged(RoleChanged)
    case sessionOpened(SessionOpened)
    case sessionClosed(SessionClosed)
    case closed(UserClosed)
    case passwordChanged(PasswordChanged)
    case passwordReset(PasswordReset)
    case resetCodeIssued(ResetCodeIssued)
    case profileChanged(ProfileChanged)
    case emailChanged(EmailChanged)
    case cardIssued(CardIssued)
    case usernameChosen(UsernameChosen)
    case usernameDropped(UsernameDropped)
    case languageChosen(LanguageChosen)
}

/// How the log stores each case: its name, written once here, and its payload.
extension UserEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case registered = "user.registered.v1"
        case roleChanged = "user.role-changed.v1"
        case sessionOpened = "user.session-opened.v1"
        case sessionClosed = "user.session-closed.v1"
        case closed = "user.closed.v1"
        case passwordChanged = "user.password-changed.v1"
        case passwordReset = "user.password-reset.v1"
        case resetCodeIssued = "user.reset-code-issued.v1"
        case profileChanged = "user.profile-changed.v1"
        case emailChanged = "user.email-changed.v1"
        case cardIssued = "user.card-issued.v1"
        case usernameChosen = "user.username-chosen.v1"
        case usernameDropped = "user.username-dropped.v1"
        case languageChosen = "user.language-chosen.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .registered(let e): (.registered, e)
        case .roleChanged(let e): (.roleChanged, e)
        case .sessionOpened(let e): (.sessionOpened, e)
        case .sessionClosed(let e): (.sessionClosed, e)
        case .closed(let e): (.closed, e)
        case .passwordChanged(let e): (.passwordChanged, e)
        case .passwordReset(let e): (.passwordReset, e)
        case .resetCodeIssued(let e): (.resetCodeIssued, e)
        case .profileChanged(let e): (.profileChanged, e)
        case .emailChanged(let e): (.emailChanged, e)
        case .cardIssued(let e): (.cardIssued, e)
        case .usernameChosen(let e): (.usernameChosen, e)
        case .usernameDropped(let e): (.usernameDropped, e)
        case .languageChosen(let e): (.languageChosen, e)
        }
    }

    public var personalData: PersonalData? {
        switch self {
        case .registered(let e): PersonalData(subject: e.user, fields: ["email", "displayName", "country", "passwordHash"])
        case .roleChanged, .sessionOpened, .sessionClosed, .closed: nil
        case .passwordChanged(let e): PersonalData(subject: e.user, fields: ["passwordHash"])
        case .passwordReset(let e): PersonalData(subject: e.user, fields: ["passwordHash"])
        case .resetCodeIssued: nil  // a digest of a short-lived code: a secret (redacted in views), not personal data
        case .profileChanged(let e): PersonalData(subject: e.user, fields: ["displayName", "country"])
        case .emailChanged(let e): PersonalData(subject: e.user, fields: ["email", "previous"])
        case .cardIssued(let e): PersonalData(subject: e.user, fields: ["card"])
        case .usernameChosen(let e): PersonalData(subject: e.user, fields: ["username"])
        case .usernameDropped: nil
        case .languageChosen: nil  // one of the library's two languages: says nothing of who the member is
        }
    }

    /// Password hashes, reset-code digests and session-token digests: never shown in any view.
    public static func secretFields(of type: StoredType) -> Set<String> {
        switch type {
        case .registered, .passwordChanged, .passwordReset: ["passwordHash"]
        case .resetCodeIssued: ["codeDigest"]
        case .sessionOpened: ["tokenDigest"]
        case .roleChanged, .sessionClosed, .profileChanged, .emailChanged, .cardIssued, .closed, .usernameChosen, .usernameDropped,
            .languageChosen:
            []
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> UserEvent {
        switch type {
        case .registered: .registered(try payload.decode())
        case .roleChanged: .roleChanged(try payload.decode())
        case .sessionOpened: .sessionOpened(try payload.decode())
        case .sessionClosed: .sessionClosed(try payload.decode())
        case .closed: .closed(try payload.decode())
        case .passwordChanged: .passwordChanged(try payload.decode())
        case .passwordReset: .passwordReset(try payload.decode())
        case .resetCodeIssued: .resetCodeIssued(try payload.decode())
        case .profileChanged: .profileChanged(try payload.decode())
        case .emailChanged: .emailChanged(try payload.decode())
        case .cardIssued: .cardIssued(try payload.decode())
        case .usernameChosen: .usernameChosen(try payload.decode())
        case .usernameDropped: .usernameDropped(try payload.decode())
        case .languageChosen: .languageChosen(try payload.decode())
        }
    }
}

/// An account was created. Only the password's hash is ever recorded. The member's personal
/// data is sealed with their key, and reads as erased once they close the account.
public struct UserRegistered: Equatable, Sendable, Codable {
    public let user: UserID
    public let email: Personal<EmailAddress>
    public let displayName: Personal<String>
    public let country: Personal<String>
    public let passwordHash: Personal<String>
    public let role: Role
    public init(user: UserID, email: EmailAddress, displayName: String, country: String, passwordHash: String, role: Role) {
        self.user = user
        self.email = .known(email)
        self.displayName = .known(displayName)
        self.country = .known(country)
        self.passwordHash = .known(passwordHash)
        self.role = role
    }
}

/// A librarian (or the operator) changed an account's role.
public struct RoleChanged: Equatable, Sendable, Codable {
    public let user: UserID
    public let role: Role
    public init(user: UserID, role: Role) {
        self.user = user
        self.role = role
    }
}

/// A registered account.
public struct Account: Equatable, Sendable {
    public var id: UserID
    public var email: EmailAddress
    public var displayName: String
    public var country: String
    public var passwordHash: String
    public var role: Role
    /// The library card, once issued (members registered before cards get one later).
    public var card: CardNumber? = nil
    /// The login name chosen for clients that log in with one, if any.
    public var username: Username? = nil
    /// The language the member chose to be spoken to in; nil until they choose one.
    public var language: Language? = nil
    /// Sessions not logged out (they may have expired).
    public var sessions: Set<SessionID> = []
    /// The reset code that may still be used, if any.
    public var resetCode: PendingResetCode? = nil
}

public enum UserState: Equatable, Sendable {
    case absent
    case registered(Account)
    /// The account was closed and its personal data erased (`Closing.swift`).
    case closed(UserID)
}

/// What can be asked of an account.
public enum UserCommand: Equatable, Sendable {
    /// Creates the account; the form was validated and the password hashed before.
    case register(UserRegistered)
    /// Changes the role; `otherLibrarians` is how many librarians the library has besides this
    /// account (the use case counts them; see `UserRules.lastLibrarian`).
    case changeRole(Role, otherLibrarians: Int)
    /// Changes the display name, country or language (checked before: `ProfileForm`).
    case changeProfile(ProfileChange)
    /// Changes the address; the use case claims the new one and releases the old one.
    case changeEmail(EmailAddress)
    /// Sets the login name (nil drops it); the use case claims the new one and releases the old one.
    case changeUsername(Username?)
    /// Issues the account's library card with this number (claimed by the use case); nothing when it has one.
    case issueCard(CardNumber)
    case openSession(SessionID, tokenDigest: String, expiresAt: Date)
    case closeSession(SessionID)
    case closeAllSessions
    /// A new password (hashed; the use case checked the current one): every session but `keeping` ends.
    case changePassword(hash: String, keeping: SessionID?)
    /// A one-time reset code (its digest) usable until `expiresAt`, replacing any older one.
    case issueResetCode(digest: String, expiresAt: Date)
    /// A new password (hashed) set with a reset code (its digest) at a moment: every session ends.
    case resetPassword(codeDigest: String, hash: String, at: Date)
}

/// Why an account command is refused.
public enum UserRejection: Error, Equatable, Sendable {
    case notRegistered
    case alreadyRegistered
    /// The reset code is wrong, used, replaced or expired (deliberately never which).
    case resetCodeRefused
    /// The account is the library's last librarian: it cannot stop being one or close.
    case lastLibrarian
}

public enum UserAggregate: Aggregate {
    public static let initial = UserState.absent

    public static func evolve(_ state: UserState, _ event: UserEvent) -> UserState {
        switch (state, event) {
        case (_, .registered(let e)):
            // Erased, the registration is the start of an account since closed (its key went with it).
            guard let email = e.email.known, let name = e.displayName.known, let country = e.country.known,
                let hash = e.passwordHash.known
            else { return .closed(e.user) }
            return .registered(Account(id: e.user, email: email, displayName: name, country: country, passwordHash: hash, role: e.role))
        case (.registered(var account), .roleChanged(let e)):
            account.role = e.role
            return .registered(account)
        case (.registered(var account), .sessionOpened(let e)):
            account.sessions.insert(e.session)
            return .registered(account)
        case (.registered(var account), .sessionClosed(let e)):
            account.sessions.remove(e.session)
            return .registered(account)
        case (.registered(var account), .passwordChanged(let e)):
            account.passwordHash = e.passwordHash.known ?? account.passwordHash
            account.resetCode = nil
            return .registered(account)
        case (.registered(var account), .passwordReset(let e)):
            account.passwordHash = e.passwordHash.known ?? account.passwordHash
            account.resetCode = nil
            return .registered(account)
        case (.registered(var account), .resetCodeIssued(let e)):
            account.resetCode = PendingResetCode(digest: e.codeDigest, expiresAt: e.expiresAt)
            return .registered(account)
        case (.registered(var account), .profileChanged(let e)):
            account.displayName = e.displayName ?? account.displayName
            account.country = e.country ?? account.country
            return .registered(account)
        case (.registered(var account), .emailChanged(let e)):
            account.email = e.email.known ?? account.email
            return .registered(account)
        case (.registered(var account), .cardIssued(let e)):
            account.card = e.card.known
            return .registered(account)
        case (.registered(var account), .usernameChosen(let e)):
            account.username = e.username.known
            return .registered(account)
        case (.registered(var account), .usernameDropped):
            account.username = nil
            return .registered(account)
        case (.registered(var account), .languageChosen(let e)):
            account.language = e.language
            return .registered(account)
        case (_, .closed(let e)):
            return .closed(e.user)
        case (.absent, _), (.closed, _):
            return state
        }
    }

    public static func decide(_ command: UserCommand, _ state: UserState) throws(UserRejection) -> [UserEvent] {
        if case .register(let registration) = command {
            guard case .registered(let account) = state else { return [.registered(registration)] }
            guard registration.email == .known(account.email), account.id == registration.user else { throw .alreadyRegistered }
            return []
        }
        guard case .registered(let account) = state else { throw .notRegistered }
        switch command {
        case .register: return []
        case .changePassword(let hash, let kept): return changePassword(hash, keeping: kept, account)
        case .issueResetCode(let digest, let expiresAt):
            return [.resetCodeIssued(ResetCodeIssued(user: account.id, codeDigest: digest, expiresAt: expiresAt))]
        case .resetPassword(let digest, let hash, let now): return try resetPassword(codeDigest: digest, hash, at: now, account)
        case .changeRole(let role, let others): return try changeRole(role, otherLibrarians: others, account)
        case .changeProfile(let change): return changeProfile(change, account)
        case .changeEmail(let email): return changeEmail(email, account)
        case .changeUsername(let name): return changeUsername(name, account)
        case .issueCard(let card): return issueCard(card, account)
        case .openSession(let session, let digest, let expiresAt): return openSession(session, digest, expiresAt, account)
        case .closeSession(let session): return closeSession(session, account)
        case .closeAllSessions: return closeAllSessions(account)
        }
    }
}
