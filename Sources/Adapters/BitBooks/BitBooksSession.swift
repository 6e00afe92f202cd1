import Application
import Domain
import Logging
import Wording

/// One connection's conversation: its own login (a session of the library's, held by this
/// connection only and closed with it) and the answer to each command. It translates: every
/// rule is the use cases'.
struct BitBooksSession {
    let library: Library
    /// The client's network address, which limits and throttles its logins as the web's are.
    let client: String?
    let logger: Logger
    /// `GET_BOOKS`, worked out once for the connections asking at the same time.
    let bookList: SharedAnswer
    private(set) var login: Login?

    /// Who logged in on this connection.
    struct Login {
        /// The name typed at `LOGIN`.
        let typed: String
        /// The account's email address.
        let email: EmailAddress
        /// The account's username, when it has one.
        let username: Username?
        /// The library session's bearer token: checked again for every command, so a session
        /// closed elsewhere (logged out, account closed) ends this login too.
        let token: String
    }

    /// A command refused with one of the protocol's lines.
    struct Refusal: Error {
        let answer: String
    }

    init(library: Library, client: String?, logger: Logger, bookList: SharedAnswer) {
        self.library = library
        self.client = client
        self.logger = logger
        self.bookList = bookList
    }

    /// The answer to `command`: one line of text, sent as it is (no line ending).
    mutating func answer(_ command: BitBooksCommand) async -> String {
        do {
            return try await answering(command)
        } catch let refusal as Refusal {
            return refusal.answer
        } catch {
            if let line = Wording.english.line(of: error) { return line }
            logger.error("BitBooks command failed: \(error)")
            return Answer.serverError
        }
    }

    private mutating func answering(_ command: BitBooksCommand) async throws -> String {
        switch command {
        case .unknown: Answer.unknownCommand
        case .misused(let usage): Answer.usage(usage)
        case .addUser(_, _, let username, let password): try await addUser(username, password: password)
        case .logIn(let username, let password): await logIn(username, password)
        case .getBooks: try await books()
        case .getBook(let isbn): try await book(isbn)
        case .loan(let username, let isbns): try await loan(username, isbns)
        case .getLoans(let username): try await loans(username)
        case .checkNotifications(let username): try await notices(username)
        }
    }

    /// Accounts need an email address and a country, which the protocol does not carry: the
    /// username and the password are checked (the password policy's first problem said on one
    /// line), and the member is sent to a librarian to register. Asking counts against the
    /// client's attempts, as a signup over HTTP does.
    private func addUser(_ username: String, password: String) async throws -> String {
        switch try await library.accounts.usernames.availability(username, client: client) {
        case .taken: return Answer.userExists
        case .invalid(let reason): return Wording.english.text(reason)
        case .free:
            guard let problem = PasswordPolicy.problems(password).first else { return Answer.askALibrarian }
            return Wording.english.text(problem)
        }
    }

    /// Logs this connection in (by username or email address); any failure, a throttled or
    /// limited attempt included, is the protocol's one `Failed login`, and logs the connection out.
    private mutating func logIn(_ username: String, _ password: String) async -> String {
        await end()
        do {
            let signedIn = try await library.accounts.logIn.execute(login: username, password: password, client: client)
            guard let token = signedIn.session?.token else { return Answer.failedLogin }
            login = Login(typed: username, email: signedIn.account.email, username: signedIn.account.username, token: token)
            return Answer.loggedIn
        } catch {
            if Wording.english.line(of: error) == nil { logger.error("BitBooks login failed: \(error)") }
            return Answer.failedLogin
        }
    }

    /// Ends this connection's login, if any, closing its session in the library.
    mutating func end() async {
        guard let login else { return }
        self.login = nil
        guard let principal = try? await library.accounts.authenticate.execute(token: login.token) else { return }
        do { try await library.accounts.logOut.execute(by: principal) } catch { logger.warning("BitBooks logout failed: \(error)") }
    }

    /// The principal of this connection's login when `username` names it; else the refusal to answer.
    func principal(as username: String) async throws -> Principal {
        guard let login, let principal = try? await library.accounts.authenticate.execute(token: login.token) else {
            throw Refusal(answer: Answer.logInFirst)
        }
        guard login.isNamed(username) else { throw Refusal(answer: Answer.notLoggedInAs(username)) }
        return principal
    }
}

extension BitBooksSession.Login {
    /// Whether `name` names the logged-in account: the login as typed at `LOGIN`, its email
    /// address or its username, each compared as a login compares it (an address normalised, a
    /// name lower-cased), so whichever the client logged in with it may send back.
    func isNamed(_ name: String) -> Bool {
        if name == typed { return true }
        if Username.looksLikeUsername(name) { return username != nil && (try? Username(parsing: name)) == username }
        return (try? EmailAddress(parsing: name)) == email
    }
}
