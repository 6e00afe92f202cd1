import Domain
import Foundation
import Testing

@testable import CLI

/// What every command shares: exit statuses by kind of failure, problem documents under --json,
/// unambiguous dates, the help's shape, --version and paging.
@Suite("CLI: exit statuses, errors, dates, help and paging")
struct CLIConventionsTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin, environment: environment)
    }

    func addBook(_ title: String = "Dune") async throws -> String {
        let added = try await run("--json", "book", "add", "--title", title, "--author", "Frank Herbert")
        return try #require(try JSONValue.parse(added.stdout, "book add")["id"]?.string, "\(added.stderr)")
    }

    @Test(
        "each kind of failure has its exit status, told in one line or as the API's problem document",
        arguments: [
            (["book", "show", "7d2c1a0e-0000-4000-8000-000000000000"], 3, 404),
            (["book", "list", "--limit", "0"], 64, 400),
            (["book", "add", "--title", "T", "--author", "A", "--copies", "0"], 64, 400),
            (["book", "clear"], 64, 400),
            (["loan", "borrow", "7d2c1a0e-0000-4000-8000-000000000000"], 1, 401),
            (["notices", "scan", "--as-of", "yesterday"], 64, 400),
        ] as [([String], Int32, Int)])
    func failures(arguments: [String], exit: Int32, status: Int) async throws {
        let plain = try await shelfmark(arguments, database: db.path)
        #expect(plain.status == exit, "\(plain.stderr)")
        #expect(plain.stderr.hasPrefix("Error: ") && plain.stderr.split(separator: "\n").count == 1, "\(plain.stderr)")
        #expect(plain.stdout.isEmpty)

        let json = try await shelfmark(["--json"] + arguments, database: db.path)
        #expect(json.status == exit)
        #expect(json.stdout.isEmpty)
        let problem = try JSONValue.parse(json.stderr, "the problem document")
        #expect(problem["status"] == .number(Double(status)), "\(json.stderr)")
        #expect(problem["type"]?.string?.hasPrefix("urn:shelfmark:problem:") == true)
        #expect(problem["detail"]?.string?.isEmpty == false)
    }

    @Test func refusedByTheRulesIsOne() async throws {
        let book = try await addBook()
        #expect(try await run("loan", "checkout", book, "--name", "Mrs Hudson").status == 0)
        let refused = try await run("--json", "book", "delete", book)
        #expect(refused.status == 1)
        #expect(try JSONValue.parse(refused.stderr, "the problem")["status"] == .number(409))
    }

    @Test func anUnusableSettingIsTwo() async throws {
        let plain = try await run("book", "list", environment: ["SHELFMARK_LOAN_DAYS": "soon"])
        #expect(plain.status == 2 && plain.stderr.contains("SHELFMARK_LOAN_DAYS"), "\(plain.stderr)")
        let json = try await run("--json", "book", "list", environment: ["SHELFMARK_LOAN_DAYS": "soon"])
        #expect(json.status == 2)
        #expect(try JSONValue.parse(json.stderr, "the problem")["type"] == .string("urn:shelfmark:problem:configuration"))
    }

    @Test func anUnavailableSourceIsFour() async throws {
        try await FakeUpstreams().run { base in
            let down = try await shelfmark(
                ["--json", "search", "dune"], database: db.path, environment: ["SHELFMARK_OPENLIBRARY_URL": base + "/error"])
            #expect(down.status == 4, "\(down.stderr)")
            #expect(try JSONValue.parse(down.stderr, "the problem")["status"] == .number(503))
        }
    }

    @Test func usageErrorsAreSixtyFourAndProblemsUnderJSON() async throws {
        let plain = try await run("book", "list", "--sort", "bogus")
        #expect(plain.status == 64 && plain.stderr.contains("--sort: must be one of"))
        let json = try await run("--json", "book", "list", "--sort", "bogus")
        #expect(json.status == 64)
        let problem = try JSONValue.parse(json.stderr, "the problem")
        #expect(problem["status"] == .number(400) && problem["detail"]?.string?.contains("--sort: must be one of") == true)
        #expect(try await run("--json", "book", "frobnicate").status == 64)
    }

    /// Found by an outside test: a negative number after an option read as another option, and the
    /// error said the value was missing.
    @Test func aNegativeNumberIsReadAsTheValueAndRefusedInOneLine() async throws {
        for arguments in [["book", "add", "--title", "x", "--author", "y", "--copies", "-5"], ["book", "list", "--offset", "-1"]] {
            let refused = try await shelfmark(arguments, database: db.path)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1 && !refused.stderr.contains("Missing value"), "\(refused.stderr)")
        }
        let offset = try await run("book", "list", "--offset", "-1")
        #expect(offset.stderr == (try await run("book", "list", "--offset=-1")).stderr)
    }

    /// Found by an outside test: a file SQLite cannot read (garbage, a folder) and a key file that
    /// is not one said "Shelfmark failed unexpectedly" with 70, the status of a bug.
    @Test func anUnreadableDatabaseFileOrKeyFileIsAnUnusableSettingSaidPlainly() async throws {
        let garbage = TemporaryDatabase()
        let folder = URL(fileURLWithPath: garbage.path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage.path))
        for path in [garbage.path, folder.path] {
            for arguments in [["book", "list"], ["serve", "--port", "0"]] {
                let result = try await shelfmark(arguments, database: path)
                #expect(result.status == 2, "\(arguments) \(path): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(
                    result.stderr.hasPrefix("Error: SHELFMARK_DB names \(path), which is not a library SQLite can read"), "\(result.stderr)"
                )
                #expect(!result.stderr.contains("DatabaseError") && !result.stderr.contains("Optional("), "\(result.stderr)")
            }
        }
        let keyed = TemporaryDatabase()
        #expect(try await shelfmark(["book", "list"], database: keyed.path).status == 0)
        try "not a key".write(toFile: keyed.path + ".key", atomically: true, encoding: .utf8)
        let badKey = try await shelfmark(["book", "list"], database: keyed.path)
        #expect(badKey.status == 2 && badKey.stderr == "Error: \(keyed.path).key is not a Shelfmark chain key file\n", "\(badKey.stderr)")
    }

    @Test func theExitStatusesAreDocumentedOnceEach() async throws {
        let statuses = ExitStatus.allCases.map(\.rawValue)
        #expect(Set(statuses).count == statuses.count)
        let help = try await run("--help").stdout
        for status in ExitStatus.allCases { #expect(help.contains("\(status.rawValue)") && help.contains(status.meaning)) }
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        for status in ExitStatus.allCases {
            #expect(readme.contains("| \(status.rawValue) |"), "README lacks exit status \(status.rawValue)")
        }
        #expect(ExitStatus(httpStatus: 409) == .refused && ExitStatus(httpStatus: 429) == .refused)
        #expect(ExitStatus(httpStatus: 404) == .notFound && ExitStatus(httpStatus: 503) == .unavailable)
        #expect(ExitStatus(httpStatus: 400) == .usage && ExitStatus(httpStatus: 500) == .internalError)
    }

    @Test func tablesWriteTheMonthInWords() async throws {
        let day = Date(timeIntervalSince1970: 1_796_652_300)  // 2026-12-07 14:05 UTC
        #expect(TableDates.day(day, in: .gmt, language: .english) == "December 7, 2026")
        #expect(TableDates.day(day, in: .gmt, language: .french) == "7 décembre 2026")
        #expect(TableDates.minute(day, in: .gmt, language: .english) == "December 7, 2026 14:05")
        #expect(TableDates.minute(day, in: .gmt, language: .french) == "7 décembre 2026 14:05")
        #expect(TableDates.minute(iso: "2026-12-07T14:05:09.123Z", in: .gmt, language: .english) == "December 7, 2026 14:05")
        #expect(TableDates.day(day, in: TimeZone(identifier: "Pacific/Auckland")!, language: .english) == "December 8, 2026")

        let book = try await addBook()
        _ = try await run("loan", "checkout", book, "--name", "Mrs Hudson")
        let list = try await run("loan", "list", environment: ["TZ": "UTC", "LANG": "", "LC_ALL": "", "LC_MESSAGES": ""]).stdout
        #expect(list.contains(/[A-Z][a-z]+ \d{1,2}, \d{4} \d{2}:\d{2}/), "\(list)")
        #expect(!list.contains(/\d{1,2}\/\d{1,2}\/\d{2,4}/), "\(list)")
    }

    @Test func versionAndHelp() async throws {
        let version = try await run("--version")
        #expect(version.status == 0 && version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ShelfmarkCommand.version)
        let root = try await run("--help").stdout
        for option in ["--db", "--json", "--countries-url", "--geo-url", "--geo-token", "--openlibrary-url", "--covers-url", "EXIT STATUS"]
        {
            #expect(root.contains(option), "\(option)")
        }
        let add = try await run("book", "add", "--help").stdout
        #expect(add.contains("--isbn") && !add.contains("--geo-token") && !add.contains("--db <path>"), "\(add)")
        #expect(add.contains("shelfmark --help"))
        #expect(try await run("loan", "borrow", "--help").stdout.contains("<book-id> ..."))
        // Hidden, still taken anywhere.
        #expect(try await run("book", "list", "--db", db.path, "--json").status == 0)
    }

    @Test(
        "no help shows an argument name made from a Swift property",
        arguments: [
            "serve", "book add", "book import", "book list", "book show", "book edit", "book delete", "book clear", "signup", "login",
            "logout", "whoami", "user list", "user add", "user promote", "user demote", "countries list", "countries default",
            "loan borrow", "loan return", "loan renew", "loan list", "loan checkout", "notices scan", "notices list", "notices read",
            "search", "bookmark add", "bookmark list", "bookmark remove", "projections rebuild", "audit verify", "audit anchor",
            "audit export", "audit history", "audit replay", "audit as-of",
        ])
    func helpReadsWell(command: String) async throws {
        let help = try await shelfmark(command.split(separator: " ").map(String.init) + ["--help"], database: db.path).stdout
        #expect(help.contains("OVERVIEW") && help.contains("USAGE"))
        #expect(!help.contains("-i-d") && !help.contains("<i-d") && !help.contains("--geo-token"), "\(command): \(help)")
        #expect(help.contains("shelfmark --help"), "\(command) does not say where the global options are")
    }

    @Test func listsPageAsTheAPIDoesAndAllWalksEveryPage() async throws {
        let db = self.db
        // 105 books through the API on the same file: more than the largest page.
        try await withAPI(databasePath: db.path) { api in
            for n in 1...105 {
                _ = try await api.send(.post, "/api/v1/books", json: #"{"title":"Book \#(n)","authors":["A"]}"#)
            }
        }
        let first = try await run("book", "list", "--sort", "oldest", "--limit", "2").stdout
        #expect(first.contains("1-2 of 105 (next page: --offset 2, or --all)"), "\(first)")
        let all = try JSONValue.parse(try await run("--json", "book", "list", "--all").stdout, "book list --all")
        guard case .array(let items)? = all["items"] else {
            Issue.record("no items")
            return
        }
        #expect(items.count == 105 && all["total"] == .number(105) && all["offset"] == .number(0) && all["nextOffset"] == nil)
        #expect(Set(items.compactMap { $0["id"]?.string }).count == 105)
        #expect(try await run("book", "list", "--all").stdout.contains("1-105 of 105"))
        // --all follows the pages from --offset on, --limit at a time.
        let walked = try JSONValue.parse(
            try await run("--json", "book", "list", "--all", "--limit", "7", "--offset", "100").stdout, "walked")
        #expect(walked["offset"] == .number(100) && walked["total"] == .number(105) && walked["limit"] == .number(5))
        let small = try JSONValue.parse(try await run("--json", "book", "list", "--all", "--limit", "7").stdout, "small pages")
        guard case .array(let smallItems)? = small["items"] else {
            Issue.record("no items")
            return
        }
        #expect(smallItems.map { $0["id"] } == items.map { $0["id"] })
        #expect(try await run("book", "list", "--limit", "101").status == 64)
        #expect(try await run("book", "list", "--offset", "-1").status == 64)
        let past = try await run("book", "list", "--offset", "500").stdout
        #expect(past.contains("Nothing on this page (105 in all)."), "\(past)")
    }
}
