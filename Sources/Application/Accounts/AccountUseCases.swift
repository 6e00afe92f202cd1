import Domain
import Foundation

/// How accounts behave: session lifetime, the login throttle and the attempts a client may make.
public struct AccountSettings: Sendable {
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    public var throttle = LoginThrottle()
    /// Logins and signups one client address may attempt, together.
    public var attempts = AttemptRate(burst: 20, perMinute: 20)
    public init() {}
}

/// What the account use cases need.
public struct AccountDependencies: Sendable {
    let runner: CommandRunner
    let hasher: any PasswordHasher
    let tokens: any SessionTokens
    let resetCodes: any ResetCodes
    let accounts: any Accounts
    let countries: any CountryDirectory
    let geolocator: any IPGeolocator
    let loginFailures: any LoginFailures
    let settings: AccountSettings
    let attempts: TokenBuckets
    /// Checks of secrets under way, counted by the login throttle as failures until they end.
    let secretChecks = SecretChecks()

    public init(
        runner: CommandRunner, hasher: any PasswordHasher, tokens: any SessionTokens, resetCodes: any ResetCodes, accounts: any Accounts,
        countries: any CountryDirectory, geolocator: any IPGeolocator, loginFailures: any LoginFailures,
        settings: AccountSettings = AccountSettings()
    ) {
        self.runner = runner
        self.hasher = hasher
        self.tokens = tokens
        self.resetCodes = resetCodes
        self.accounts = accounts
        self.countries = countries
        self.geolocator = geolocator
        self.loginFailures = loginFailures
        self.settings = settings
        self.attempts = TokenBuckets(rate: settings.attempts)
    }

    /// Lets a login or signup from `client` go ahead, or refuses it before any password is
    /// hashed. The command line (no client address) is the operator's and is not limited.
    func admit(_ client: String?) throws {
        guard let client, let wait = attempts.take(client, now: runner.clock.now()) else { return }
        throw TooManyAttempts(retryAfter: wait)
    }

    /// Opens a session on an account: the events, and the token to hand out once.
    func openSession(in state: UserState) throws -> ([UserEvent], SignedIn.Session) {
        let session = SessionID(runner.ids.next())
        let (token, digest) = tokens.issue()
        let expiresAt = runner.clock.now().addingTimeInterval(settings.sessionLifetime)
        let events = try UserAggregate.decide(.openSession(session, tokenDigest: digest, expiresAt: expiresAt), state)
        return (events, SignedIn.Session(id: session, token: token, expiresAt: expiresAt))
    }

    func summary(_ id: UserID) async throws -> AccountSummary {
        guard let account = try await accounts.account(id) else { throw NotFound(.user, id.description) }
        return account
    }
}

/// An account and, after signup or login, its new session.
public struct SignedIn: Sendable {
    public struct Session: Sendable, Equatable {
        public let id: SessionID
        /// The bearer token: shown once, stored nowhere but by the client.
        public let token: String
        public let expiresAt: Date
    }
    public let account: AccountSummary
    public let session: Session?
}

/// The account use cases, as the CLI and the HTTP API both call them.
public struct AccountUseCases: Sendable {
    public let signUp: SignUp
    public let logIn: LogIn
    public let logOut: LogOut
    public let authenticate: Authenticate
    public let showMe: ShowMe
    public let changeRole: ChangeRole
    public let closeAccount: CloseAccount
    public let passwords: PasswordUseCases
    public let editProfile: EditProfile
    public let listUsers: ListUsers
    public let members: MemberDirectory
    public let countries: CountryUseCases
    public let usernames: Usernames

    public init(_ deps: AccountDependencies) {
        signUp = SignUp(deps: deps)
        logIn = LogIn(deps: deps)
        logOut = LogOut(deps: deps)
        authenticate = Authenticate(deps: deps)
        showMe = ShowMe(deps: deps)
        changeRole = ChangeRole(deps: deps)
        closeAccount = CloseAccount(deps: deps)
        passwords = PasswordUseCases(deps)
        editProfile = EditProfile(deps: deps)
        listUsers = ListUsers(deps: deps)
        members = MemberDirectory(deps: deps)
        usernames = Usernames(deps: deps)
        countries = CountryUseCases(countries: deps.countries, geolocator: deps.geolocator)
    }
}
