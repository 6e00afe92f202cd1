import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Synchronization
import Testing

/// `shelfmark --json` prints exactly what the API answers for the same operation: every command
/// with an API twin is run both ways on one database file and the two answers compared, parsed.
@Suite("CLI --json and the API: one vocabulary")
struct CLIAPITwinTests {
    /// Every command (or form of one) with an API twin, and the operation whose answer it prints.
    static let twins: [String: String] = [
        "book add": "createBook", "book import": "importBook", "book list": "listBooks", "book show": "getBook",
        "book edit": "updateBook", "book delete": "deleteBook", "book clear": "clearCatalogue",
        "signup": "signUp", "login": "logIn", "logout": "logOut", "logout --everywhere": "logOutEverywhere", "whoami": "me",
        "user list": "listUsers", "user promote": "changeRole", "user demote": "changeRole",
        "countries list": "listCountries", "countries default": "defaultCountry",
        "loan borrow": "borrowBooks", "loan return": "returnLoan", "loan renew": "renewLoan", "loan checkout": "checkoutWalkIn",
        "loan list": "listLoans", "loan list (a member's own)": "myLoans", "loan renew --all": "renewAllLoans",
        "hold place": "placeHold", "hold list": "myHolds", "hold list (librarians)": "listHolds", "hold cancel": "cancelHold",
        "hold queue": "bookHolds",
        "notices list": "myNotifications", "notices read": "markNotificationRead", "notices read --all": "markAllNotificationsRead",
        "search": "searchBooks", "bookmark add": "bookmarkWork", "bookmark add --book": "bookmarkBook",
        "bookmark list": "listBookmarks", "bookmark remove": "removeBookmark",
        "audit verify": "verifyLog", "audit history": "aggregateHistory", "audit as-of": "asOf",
    ]

    /// Commands with no API twin: their `--json` is their own (and says so in their help).
    static let withoutTwin: Set<String> = [
        "serve", "user add", "notices scan", "audit anchor", "audit export", "audit replay", "projections rebuild",
    ]

    /// Operations no command prints the answer of.
    static let operationsWithoutCommand: Set<String> = ["health"]

    @Test func everyCommandIsInTheTableAndEveryOperationHasACommand() throws {
        let dump = try shelfmark(["--experimental-dump-help"], database: TemporaryDatabase().path)
        let tree = try JSONValue.parse(dump.stdout, "the command tree")
        let commands = Set(leaves(try #require(tree["command"])))
        #expect(commands.count > 30)
        let named = Set(Self.twins.keys.map { $0.components(separatedBy: " --").first!.components(separatedBy: " (").first! })
        #expect(commands.subtracting(named).subtracting(Self.withoutTwin).isEmpty, "commands in neither table")
        #expect(named.union(Self.withoutTwin).subtracting(commands).isEmpty, "tables name commands that do not exist")

        let contract = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/Adapters/HTTPAPI/openapi.yaml"), encoding: .utf8)
        let operations = Set(
            contract.matches(of: /operationId: (\w+)/).map { String($0.output.1) })
        #expect(operations.subtracting(Self.twins.values).subtracting(Self.operationsWithoutCommand).isEmpty)
    }

    /// `book add`, … from ArgumentParser's description of the command tree.
    private func leaves(_ command: JSONValue, _ prefix: String = "") -> [String] {
        let name = command["commandName"]?.string ?? ""
        let path = prefix.isEmpty ? "" : (prefix == "shelfmark" ? name : prefix + " " + name)
        guard case .array(let children)? = command["subcommands"] else { return [path] }
        let real = children.filter { $0["commandName"]?.string != "help" }
        return real.isEmpty ? [path] : real.flatMap { leaves($0, path.isEmpty ? name : path) }
    }

    @Test func everyTwinAnswersAlike() async throws {
        let db = TemporaryDatabase()
        try await FakeUpstreams().run { base in
            let env = ["SHELFMARK_OPENLIBRARY_URL": base + "/ok", "SHELFMARK_COVERS_URL": "https://covers.example", "TZ": "UTC"]
            try await withAPI(
                databasePath: db.path, clock: ManualClock(Date()),
                configure: {
                    $0.openLibraryURL = base + "/ok"
                    $0.coversURL = "https://covers.example"
                }
            ) { api in
                let twins = Twins(api: api, db: db, environment: env)
                try await twins.walkTheLibrary()
                #expect(Set(twins.compared.withLock { $0 }) == Set(Self.twins.keys))
            }
        }
    }
}

/// The walk: each step runs a command and its API twin and compares their answers.
private final class Twins: Sendable {
    let api: APIClient
    let db: TemporaryDatabase
    let environment: [String: String]
    let compared = Mutex<[String]>([])

    init(api: APIClient, db: TemporaryDatabase, environment: [String: String]) {
        self.api = api
        self.db = db
        self.environment = environment
    }

    /// The token the CLI saved at its last login, for the API to act as the same session.
    var cliToken: String {
        get throws {
            let file = URL(fileURLWithPath: db.path).deletingLastPathComponent().appendingPathComponent("config/shelfmark/session")
            return try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    func cli(_ arguments: [String], stdin: String? = nil, asOperator: Bool = false, settings: [String: String] = [:]) async throws
        -> CLIResult
    {
        var environment = environment.merging(settings) { $1 }
        if asOperator { environment["XDG_CONFIG_HOME"] = URL(fileURLWithPath: db.path).deletingLastPathComponent().path + "/operator" }
        return try await shelfmark(["--json"] + arguments, database: db.path, stdin: stdin, environment: environment)
    }

    /// Runs `shelfmark --json <arguments>`, then the request, and expects the same answer: the same
    /// JSON (parsed; `volatile` keys of two separate writes only of the same kind), or nothing for a 204.
    @discardableResult
    func twin(
        _ name: String, _ arguments: [String], _ method: HTTPRequest.Method, _ uri: String, json: String? = nil,
        token: String?? = .some(nil), headers: HTTPFields = [:], stdin: String? = nil, volatile: Set<String> = []
    ) async throws -> JSONValue? {
        let cli = try await cli(arguments, stdin: stdin)
        #expect(cli.status == 0, "\(name): \(cli.stderr)")
        var fields = headers
        if json != nil { fields[.contentType] = "application/json" }
        let bearer: String? =
            switch token {
            case .some(nil): api.librarianToken
            case .some(let value?): value
            case .none: nil
            }
        if let bearer { fields[.authorization] = "Bearer \(bearer)" }
        let response = try await api.client.execute(uri: uri, method: method, headers: fields, body: json.map { ByteBuffer(string: $0) })
        #expect(response.status.code < 300, "\(name): \(response.status) \(response.text)")
        compared.withLock { $0.append(name) }
        if response.status == .noContent {
            #expect(cli.stdout.isEmpty, "\(name): the API answers 204, the CLI printed \(cli.stdout)")
            return nil
        }
        let mine = try JSONValue.parse(cli.stdout, "\(name) (CLI)")
        let theirs = try JSONValue.parse(response.text, "\(name) (API)")
        let differences = mine.differences(from: theirs, volatile: volatile)
        #expect(differences.isEmpty, "\(name): \(differences.joined(separator: "\n"))")
        return mine
    }

    /// Runs a failing command and the failing request: the same problem document.
    func failingTwin(_ arguments: [String], _ method: HTTPRequest.Method, _ uri: String, token: String?? = .some(nil)) async throws {
        let cli = try await cli(arguments)
        #expect(cli.status != 0 && cli.stdout.isEmpty, "\(arguments): \(cli.stdout)")
        let response = try await api.send(method, uri, token: token)
        let differences = try JSONValue.parse(cli.stderr, "the CLI's problem").differences(
            from: try JSONValue.parse(response.text, "the API's"))
        #expect(differences.isEmpty, "\(arguments): \(differences.joined(separator: "\n"))")
    }

    func id(_ value: JSONValue?) throws -> String { try #require(value?["id"]?.string) }

    func walkTheLibrary() async throws {
        let librarian = try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n")
        #expect(librarian.status == 0, "\(librarian.stderr)")
        try await catalogue()
        try await accounts()
        try await circulation()
        try await holds()
        try await bookmarksAndSearch()
        try await audit()
        try await clearing()
    }

    let book = #"{"title":"Twin","authors":["Ann Author"],"categories":["sf"],"copies":3}"#
    let bookArguments = ["--title", "Twin", "--author", "Ann Author", "--category", "sf", "--copies", "3"]
    let bookWrite: Set<String> = ["id", "addedAt", "updatedAt"]

    func catalogue() async throws {
        let added = try await twin("book add", ["book", "add"] + bookArguments, .post, "/api/v1/books", json: book, volatile: bookWrite)
        let first = try id(added)
        let imported = try await twin(
            "book import", ["book", "import", "--isbn", "0140328726", "--author", "Roald Dahl", "--copies", "2"], .post,
            "/api/v1/books/import",
            json: #"{"isbn":"0140328726","authors":["Roald Dahl"],"copies":2,"allowDuplicate":true}"#, volatile: bookWrite)
        _ = try id(imported)
        try await twin("book show", ["book", "show", first], .get, "/api/v1/books/\(first)")
        try await twin("book list", ["book", "list"], .get, "/api/v1/books")
        try await twin(
            "book list", ["book", "list", "--sort", "title", "--limit", "2", "--offset", "1"], .get,
            "/api/v1/books?sort=title&limit=2&offset=1")
        // The same edit twice: the second changes nothing, so both answers are the book as it is.
        try await twin(
            "book edit", ["book", "edit", first, "--publisher", "Harper"], .patch, "/api/v1/books/\(first)",
            json: #"{"publisher":"Harper"}"#)
        try await failingTwin(
            ["book", "show", "7d2c1a0e-0000-4000-8000-000000000000"], .get, "/api/v1/books/7d2c1a0e-0000-4000-8000-000000000000")
        try await failingTwin(["book", "list", "--limit", "0"], .get, "/api/v1/books?limit=0")
    }

    func accounts() async throws {
        try await twin("whoami", ["whoami"], .get, "/api/v1/me")
        try await twin("countries list", ["countries", "list"], .get, "/api/v1/countries")
        try await twin(
            "countries list", ["countries", "list", "--limit", "5", "--offset", "40"], .get, "/api/v1/countries?limit=5&offset=40")
        try await twin(
            "countries default", ["countries", "default", "--accept-language", "fr-CA"], .get, "/api/v1/countries/default",
            headers: [.acceptLanguage: "fr-CA"])
        let bob = try await api.signUpMember("bob@example.org")
        try await twin("user list", ["user", "list"], .get, "/api/v1/users")
        let bobID = try #require(try await api.send(.get, "/api/v1/me", token: bob).object["id"] as? String)
        try await twin(
            "user promote", ["user", "promote", "bob@example.org"], .post, "/api/v1/users/\(bobID)/role", json: #"{"role":"librarian"}"#)
        try await twin(
            "user demote", ["user", "demote", "bob@example.org"], .post, "/api/v1/users/\(bobID)/role", json: #"{"role":"member"}"#)
        _ = try await cli(["logout"])
        // Two members signing up: the same answer but for who they are and when.
        try await twin(
            "signup", ["signup", "--email", "ada@example.org", "--name", "Member", "--country", "FR"], .post, "/api/v1/users",
            json: #"{"email":"cy@example.org","password":"Member-Pass1","displayName":"Member","country":"FR"}"#, token: .none,
            stdin: "Member-Pass1\n", volatile: ["id", "email", "token", "expiresAt", "registeredAt"])
        try await twin("whoami", ["whoami"], .get, "/api/v1/me", token: try cliToken)
    }

    func circulation() async throws {
        let ada = try cliToken
        let books = try #require(try await api.send(.get, "/api/v1/books?sort=oldest").object["items"] as? [[String: Any]])
        // The two books titled "Twin", added by the CLI and by the API.
        let twins = books.filter { $0["title"] as? String == "Twin" }.compactMap { $0["id"] as? String }
        try #require(twins.count == 2)
        let twinBook = twins[0]
        let loanWrite: Set<String> = ["id", "bookId", "lentAt", "dueAt"]
        // Ada borrows one "Twin" through the CLI, the other through the API: two loans alike.
        let borrowed = try await twin(
            "loan borrow", ["loan", "borrow", twins[0]], .post, "/api/v1/loans", json: #"{"bookIds":["\#(twins[1])"]}"#, token: ada,
            volatile: loanWrite)
        guard case .array(let loans)? = borrowed?["loans"] else {
            Issue.record("no loans")
            return
        }
        let loan = try id(loans.first)
        let other = try #require(
            (try await api.send(.get, "/api/v1/me/loans", token: ada).object["items"] as? [[String: Any]])?.compactMap {
                $0["id"] as? String
            }
            .first { $0 != loan })
        try await twin("loan list (a member's own)", ["loan", "list"], .get, "/api/v1/me/loans", token: ada)
        try await twin("loan renew", ["loan", "renew", loan], .post, "/api/v1/loans/\(other)/renew", token: ada, volatile: loanWrite)
        try await twin(
            "loan return", ["loan", "return", loan], .post, "/api/v1/loans/\(other)/return", token: ada,
            volatile: loanWrite + ["returnedAt"])
        // A loan due within the due-soon window: a scan now gives Ada a notice.
        #expect(try await cli(["loan", "borrow", twinBook], settings: ["SHELFMARK_LOAN_DAYS": "1"]).status == 0)
        let scan = try await cli(["notices", "scan"], asOperator: true)
        #expect(scan.status == 0 && scan.stdout.contains("\"issued\" : 1"), "\(scan.stdout)\(scan.stderr)")
        let notices = try await twin("notices list", ["notices", "list"], .get, "/api/v1/me/notifications", token: ada)
        guard case .array(let items)? = notices?["items"] else {
            Issue.record("no notices")
            return
        }
        let notice = try id(items.first)
        try await twin("notices read", ["notices", "read", notice], .post, "/api/v1/me/notifications/\(notice)/read", token: ada)
        try await twin("notices read --all", ["notices", "read", "--all"], .post, "/api/v1/me/notifications/read-all", token: ada)
        try await twin("logout", ["logout"], .delete, "/api/v1/sessions/current", token: try await api.signUpMember("dee@example.org"))
        try await twin(
            "login", ["login", "--email", "ada@example.org"], .post, "/api/v1/sessions",
            json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none, stdin: "Member-Pass1\n",
            volatile: ["token", "expiresAt"])
        let lib = try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n")
        #expect(lib.status == 0)
        try await twin("loan list", ["loan", "list"], .get, "/api/v1/loans")
        try await twin("loan list", ["loan", "list", "--member", "ada@example.org"], .get, "/api/v1/loans?member=ada@example.org")
        try await twin(
            "loan checkout", ["loan", "checkout", twinBook, "--name", "Mrs Hudson"], .post, "/api/v1/books/\(twinBook)/checkout",
            json: #"{"borrowerName":"Mrs Hudson"}"#, volatile: loanWrite)
        try await twin("loan list", ["loan", "list", "--book", twinBook, "--limit", "1"], .get, "/api/v1/loans?book=\(twinBook)&limit=1")
    }

    func holds() async throws {
        // A book whose only copy is out: members wait for it.
        let made = try await api.send(.post, "/api/v1/books", json: #"{"title":"Waited","authors":["Ann Author"],"copies":1}"#)
        let waited = try #require(try made.object["id"] as? String)
        #expect(try await api.send(.post, "/api/v1/books/\(waited)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#).status == .created)
        _ = try await cli(["logout"])
        #expect(try await cli(["login", "--email", "ada@example.org"], stdin: "Member-Pass1\n").status == 0)
        let ada = try cliToken
        let fay = try await api.signUpMember("fay@example.org")
        // Ada joins the line through the CLI, Fay through the API: two holds alike but for who and where.
        let holdWrite: Set<String> = ["id", "memberId", "memberName", "placedAt", "position"]
        let adas = try id(
            try await twin(
                "hold place", ["hold", "place", waited], .post, "/api/v1/holds", json: #"{"bookId":"\#(waited)"}"#, token: fay,
                volatile: holdWrite))
        try await twin("hold list", ["hold", "list"], .get, "/api/v1/me/holds", token: ada)
        // Renewing all twice: the CLI's renewal, then the API's, of Ada's one active loan.
        try await twin(
            "loan renew --all", ["loan", "renew", "--all"], .post, "/api/v1/me/loans/renew-all", token: ada,
            volatile: ["dueAt", "renewals"])
        #expect(try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n").status == 0)
        try await twin("hold queue", ["hold", "queue", waited], .get, "/api/v1/books/\(waited)/holds")
        try await twin("hold list (librarians)", ["hold", "list"], .get, "/api/v1/holds")
        try await twin("hold list (librarians)", ["hold", "list", "--ready"], .get, "/api/v1/holds?status=ready")
        let fays = try #require(
            (try await api.send(.get, "/api/v1/me/holds", token: fay).object["items"] as? [[String: Any]])?.first?["id"] as? String)
        try await twin("hold cancel", ["hold", "cancel", adas], .delete, "/api/v1/holds/\(fays)", volatile: holdWrite)
    }

    func bookmarksAndSearch() async throws {
        _ = try await cli(["logout"])
        #expect(try await cli(["login", "--email", "ada@example.org"], stdin: "Member-Pass1\n").status == 0)
        let ada = try cliToken
        try await failingTwin(["user", "list"], .get, "/api/v1/users", token: ada)
        // Bookmarking twice is harmless: both answers are the bookmarks as they are.
        try await twin("bookmark add", ["bookmark", "add", "OL82563W"], .put, "/api/v1/me/bookmarks/OL82563W", token: ada)
        let book = try #require(
            (try await api.send(.get, "/api/v1/books?sort=oldest").object["items"] as? [[String: Any]])?.first?["id"] as? String)
        try await twin("bookmark add --book", ["bookmark", "add", "--book", book], .put, "/api/v1/me/bookmarks/books/\(book)", token: ada)
        try await twin("bookmark list", ["bookmark", "list", "--sort", "title"], .get, "/api/v1/me/bookmarks?sort=title", token: ada)
        try await twin("bookmark remove", ["bookmark", "remove", "OL82563W"], .delete, "/api/v1/me/bookmarks/OL82563W", token: ada)
        try await twin(
            "search", ["search", "lord of the rings", "--limit", "3"], .get, "/api/v1/search?title=lord%20of%20the%20rings&limit=3")
        try await twin(
            "logout --everywhere", ["logout", "--everywhere"], .delete, "/api/v1/sessions",
            token: try await api.signUpMember("eve@example.org"))
        #expect(try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n").status == 0)
    }

    func audit() async throws {
        try await twin("audit verify", ["audit", "verify"], .get, "/api/v1/audit/verify")
        let book = try #require(
            (try await api.send(.get, "/api/v1/books?sort=oldest").object["items"] as? [[String: Any]])?.first?["id"] as? String)
        try await twin("audit history", ["audit", "history", "--book", book], .get, "/api/v1/audit/history?book=\(book)")
        try await twin(
            "audit history", ["audit", "history", "--member", "ada@example.org"], .get, "/api/v1/audit/history?member=ada@example.org")
        let now = Date().formatted(.iso8601)
        for view in ["books", "loans"] {
            try await twin("audit as-of", ["audit", "as-of", now, view], .get, "/api/v1/audit/as-of?at=\(now)&view=\(view)")
        }
        try await twin(
            "audit as-of", ["audit", "as-of", now, "member", "ada@example.org"], .get,
            "/api/v1/audit/as-of?at=\(now)&view=member&member=ada@example.org")
    }

    func clearing() async throws {
        let spare = try #require(try await api.send(.post, "/api/v1/books", json: book).object["id"] as? String)
        try await twin("book delete", ["book", "delete", spare], .delete, "/api/v1/books/\(spare)")
        // Whatever the CLI withdraws, the API's clear afterwards has nothing left to: only `kept` compares.
        try await twin("book clear", ["book", "clear", "--yes"], .delete, "/api/v1/books?confirm=true", volatile: ["withdrawn"])
    }
}

extension Set<String> {
    fileprivate static func + (set: Set<String>, more: [String]) -> Set<String> { set.union(more) }
}
