import Application
import Domain

/// Every line the server answers with. The clients compare the first ones exactly, so they are
/// written here once; the rest are this server's own, each a clear sentence on one line.
enum Answer {
    static let userExists = "Username already exists"
    static let askALibrarian =
        "Ask a librarian to register you (an account needs an email address); then log in here with your username"
    static let loggedIn = "Successfully logged"
    static let failedLogin = "Failed login"
    static let loanConfirmed = "Loan confirmed"
    static let unknownCommand = "Unknown command"
    static let unknownBookName = "Unknown book"
    static let emptyList = "[]"
    static let logInFirst = "Log in first: LOGIN USERNAME PASSWORD"
    static let tooLong = "Command too long: at most 4096 bytes on one line"
    static let tooManyConnections = "Too many connections: try again later"
    static let serverError = "Server error: try again later"

    static func usage(_ usage: String) -> String { "Wrong arguments: \(usage)" }
    /// At most `echoedISBNLength` characters of what the client sent are said back.
    static func noSuchISBN(_ isbn: String) -> String {
        "No book with ISBN \(isbn.count > echoedISBNLength ? String(isbn.prefix(echoedISBNLength)) + "…" : isbn)"
    }
    static let echoedISBNLength = 20
    static func notLoggedInAs(_ username: String) -> String { "You are not logged in as \(username)" }
    static func noCopies(_ title: String) -> String { "No more copies available for the book: \(title)" }
    static func loansMade(_ max: Int) -> String { "You have already made \(max) loans" }
    static func loansMade(_ active: Int, more: Int) -> String {
        "You have already made \(active) loans, you can only apply for \(more) more"
    }
    static func requestFewer(_ max: Int) -> String { "Request less than \(max) books" }
}

/// The application's refusals of a borrowing, said in the protocol's words: translation only,
/// the rules (limit, copies, all or nothing) are the use case's.
enum LoanAnswers {
    static func of(_ error: any Error) -> String? {
        switch error {
        case let refused as LoanRefused: return of(refused)
        case let refused as BookRefused:
            guard case .noCopyAvailable = refused.rejection else { return nil }
            return Answer.noCopies(refused.title ?? Answer.unknownBookName)
        case let missing as NotFound where missing.thing == .book: return Answer.noCopies(Answer.unknownBookName)
        default: return nil
        }
    }

    private static func of(_ refused: LoanRefused) -> String? {
        switch refused.rejection {
        case .patron(.limitReached(let max, let active, _)) where active >= max: Answer.loansMade(max)
        case .patron(.limitReached(let max, let active, _)): Answer.loansMade(active, more: max - active)
        case .patron(.tooManyInOneRequest(let max)): Answer.requestFewer(max)
        // Copies kept for members who waited are not this client's to borrow.
        case .hold(.setAsideForOthers(let book, _)), .hold(.copiesSetAside(let book, _)):
            Answer.noCopies(refused.titles[book] ?? Answer.unknownBookName)
        default: nil
        }
    }
}

extension MessageCatalogue {
    /// An error a person may read, on one line; nil for a fault (logged, answered as a server error).
    func line(of error: any Error) -> String? {
        text(of: error).map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
    }
}
