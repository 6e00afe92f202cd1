import Domain

/// Why an app key cannot be issued, found or used.
public enum AppKeyProblem: Equatable, Sendable {
    /// The account is a member's, and a key acts as a librarian (`AppKeyAggregate.onlyLibrarians`).
    case notALibrarian(email: String)
    /// No live key has this text: never issued, revoked, or its librarian is one no longer.
    case unknownKey
}

/// An app key refused.
public struct AppKeyRefused: MessageConvertible, Equatable, Sendable {
    public let problem: AppKeyProblem
    public init(_ problem: AppKeyProblem) { self.problem = problem }
    public var message: Message { .appKey(problem) }
}

/// A key just issued: its text, shown once and stored nowhere but by the app.
public struct IssuedAppKey: Equatable, Sendable {
    public let id: AppKeyID
    public let key: String
    public let user: UserID
}

/// What the app-key use cases need.
public struct AppKeyDependencies: Sendable {
    let runner: CommandRunner
    /// Digests a key as a session token is digested (SHA-256, hex): the log and the read model hold only that.
    let tokens: any SessionTokens
    let accounts: any Accounts
    let register: any AppKeyRegister

    public init(runner: CommandRunner, tokens: any SessionTokens, accounts: any Accounts, register: any AppKeyRegister) {
        self.runner = runner
        self.tokens = tokens
        self.accounts = accounts
        self.register = register
    }
}

/// The shape of a key: 24 lower-case hex characters (12 random bytes), as the Prolific service's
/// per-team URLs had.
public enum AppKeyText {
    /// How many characters a key has.
    public static let length = 24

    /// Whether `text` has a key's shape (it may still be no key).
    public static func isKeyShaped(_ text: some StringProtocol) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new key from 12 draws of `random`, one byte each.
    static func draw(_ random: any RandomSource) -> String {
        (0..<length / 2).map { _ in
            let byte = min(255, Int(random.unit() * 256))
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}

/// Issues a key for an app to a librarian, named by email; refuses a member's account.
public struct IssueAppKey: Sendable {
    let deps: AppKeyDependencies
    let members: MemberDirectory

    public func execute(forEmail email: String, app: String = AppKeyIssued.prolific, by principal: Principal) async throws
        -> IssuedAppKey
    {
        try Authorization.require(.issueAppKey, by: principal)
        let user = try await members.find(email, by: principal)
        let id = AppKeyID(deps.runner.ids.next())
        let key = AppKeyText.draw(deps.runner.random)
        let issued = AppKeyIssued(key: id, user: user, app: app, digest: deps.tokens.digest(key))
        try await deps.runner.transact(by: principal) { transaction in
            let account = try await transaction.load(UserAggregate.self, .user(user))
            guard case .registered(let holder) = account.state else { throw NotFound(.user, email) }
            transaction.expectUnchanged(account)
            let stream = try await transaction.load(AppKeyAggregate.self, .appKey(id))
            try transaction.decide(.issue(issued, role: holder.role), on: stream) { rejection in
                rejection == .notALibrarian ? AppKeyRefused(.notALibrarian(email: holder.email.value)) : AppKeyRefused(.unknownKey)
            }
        }
        return IssuedAppKey(id: id, key: key, user: user)
    }
}

/// Revokes a key by its text; a key revoked already stays revoked (nothing new is recorded).
public struct RevokeAppKey: Sendable {
    let deps: AppKeyDependencies

    /// Revokes the key; false when it was revoked already (and nothing was recorded).
    @discardableResult
    public func execute(key: String, by principal: Principal) async throws -> Bool {
        try Authorization.require(.revokeAppKey, by: principal)
        guard AppKeyText.isKeyShaped(key), let record = try await deps.register.appKey(digest: deps.tokens.digest(key)) else {
            throw AppKeyRefused(.unknownKey)
        }
        return try await deps.runner.transact(by: principal) { transaction in
            let stream = try await transaction.load(AppKeyAggregate.self, .appKey(record.key))
            let events: [AppKeyEvent]
            do { events = try AppKeyAggregate.decide(.revoke, stream.state) } catch { throw AppKeyRefused(.unknownKey) }
            transaction.record(stream, events)
            return !events.isEmpty
        }
    }
}

/// Turns a key from an app's URL into the librarian it acts as, asked again at every request:
/// an unknown or revoked key, a key of another app, and a key whose account was closed or is a
/// librarian's no longer are all `AppKeyRefused(.unknownKey)`.
public struct AuthenticateAppKey: Sendable {
    let deps: AppKeyDependencies

    public func execute(key: String, app: String = AppKeyIssued.prolific) async throws -> Principal {
        guard AppKeyText.isKeyShaped(key), let record = try await deps.register.appKey(digest: deps.tokens.digest(key)),
            !record.revoked, record.app == app,
            let account = try await deps.accounts.account(record.user), account.role == .librarian
        else { throw AppKeyRefused(.unknownKey) }
        // The key stands where a session would: the log's actor is the librarian.
        return Principal.user(account.id, .librarian, SessionID(record.key.uuid)).traced()
    }
}

/// Whether an app has a key that works now (the server mounts the app's API when it has).
public struct AppKeysInUse: Sendable {
    let deps: AppKeyDependencies

    public func execute(app: String = AppKeyIssued.prolific) async throws -> Bool {
        try await deps.register.anyLive(app: app)
    }
}

/// The app-key use cases.
public struct AppKeyUseCases: Sendable {
    public let issue: IssueAppKey
    public let revoke: RevokeAppKey
    public let authenticate: AuthenticateAppKey
    public let inUse: AppKeysInUse

    public init(_ deps: AppKeyDependencies, members: MemberDirectory) {
        issue = IssueAppKey(deps: deps, members: members)
        revoke = RevokeAppKey(deps: deps)
        authenticate = AuthenticateAppKey(deps: deps)
        inUse = AppKeysInUse(deps: deps)
    }
}
