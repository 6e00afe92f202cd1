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
        "account show": "me", "account edit": "editMe", "account close": "closeMe", "user close": "closeUser",
        "user list": "listUsers", "user promote": "changeRole", "user demote": "changeRole",
        "password change": "changePassword", "password reset-code": "issueResetCode", "password reset": "resetPassword",
        "countries list": "listCountries", "countries default": "defaultCountry",
        "loan borrow": "borrowBooks", "loan return": "returnLoan", "loan renew": "renewLoan", "loan checkout": "checkoutWalkIn",
        "loan list": "listLoans", "loan list (a member's own)": "myLoans", "loan renew --all": "renewAllLoans",
        "desk lend": "lendAtDesk", "user show": "showUser",
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
        // Files on the server's own disk, beside the database: no HTTP operation copies or replaces the database.
        "backup", "restore",
        // The storage's own schema and moving a library's log into PostgreSQL: no HTTP operation touches the storage itself.
        "migrate", "copy",
        // Issuing the cards older accounts lack is the operator's upkeep; `account card` prints the number, and its --svg file
        // holds exactly the image GET /api/v1/me/card answers (HTTPDeskTests, CLIDeskTests).
        "user issue-cards", "account card",
        // The Prolific apps' keys: the HTTP API makes none (a key acts as a librarian; the operator or a librarian makes it here).
        "compat prolific-key create", "compat prolific-key revoke",
    ]

    /// Operations no command prints the answer of.
    static let operationsWithoutCommand: Set<String> = [
        "health",
        // An SVG image, not JSON: `account card --svg FILE` writes it.
        "myCard",
    ]

    @Test func everyCommandIsInTheTableAndEveryOperationHasACommand() async throws {
        let dump = try await shelfmark(["--experimental-dump-help"], database: TemporaryDatabase().path)
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
final class Twins: Sendable {
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

    func id(_ value: JSONValue?) async throws -> String { try #require(value?["id"]?.string) }

    func walkTheLibrary() async throws {
        let librarian = try await cli(["login", "--email", "librarian@example.org"], stdin: "Librarian-Pass1\n")
        #expect(librarian.status == 0, "\(librarian.stderr)")
        try await catalogue()
        try await accounts()
        try await passwords()
        try await circulation()
        try await holds()
        try await bookmarksAndSearch()
        try await audit()
        try await clearing()
        try await closing()
    }

    let book = #"{"title":"Twin","authors":["Ann Author"],"categories":["sf"],"copies":3}"#
    let bookArguments = ["--title", "Twin", "--author", "Ann Author", "--category", "sf", "--copies", "3"]
    let bookWrite: Set<String> = ["id", "addedAt", "updatedAt"]
}
