import Foundation
import Testing

/// `shelfmark hold ...` and `loan renew --all`, run as the built binary across processes.
@Suite("CLI: holds")
struct CLIHoldTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) throws -> CLIResult { try shelfmark(arguments, database: db.path, stdin: stdin) }

    /// Signs up a librarian (promoted by the operator) and logs in as them.
    func librarian() throws {
        _ = try run("logout")
        _ = try run("signup", "--email", "lib@example.org", "--country", "FR", stdin: "Member-Pass1\n")
        _ = try run("logout")
        #expect(try run("user", "promote", "lib@example.org").status == 0)
        #expect(try run("login", "--email", "lib@example.org", stdin: "Member-Pass1\n").status == 0)
    }

    func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    @Test func placeListQueueReturnBorrowAndCancel() throws {
        let book = try #require(try json(try run("--json", "book", "add", "--title", "Dune", "--author", "F"))["id"] as? String)
        let walkIn = try #require(try json(try run("--json", "loan", "checkout", book, "--name", "Mrs Hudson"))["id"] as? String)
        #expect(try run("signup", "--login", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)

        let placed = try run("hold", "place", book)
        #expect(placed.status == 0 && placed.stdout.contains("waiting, number 1 in line"), "\(placed.stdout)\(placed.stderr)")
        #expect(try run("hold", "list").stdout.contains("Dune"))
        let twice = try run("hold", "place", book)
        #expect(twice.status != 0 && twice.stderr.contains("you already hold “Dune”: you are number 1 in line"))
        #expect(try run("loan", "renew", "--all").stdout.contains("No loans."))
        let both = try run("loan", "renew", "--all", walkIn)
        #expect(both.status != 0)

        try librarian()
        #expect(try run("hold", "queue", book).stdout.contains("ada"))
        #expect(try run("hold", "list", "--ready").stdout.contains("No holds."))
        #expect(try run("loan", "return", walkIn).status == 0)
        #expect(try run("hold", "list", "--ready").stdout.contains("ready until"))

        #expect(try run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 0)
        #expect(try run("notices", "list").stdout.contains("ready-for-pickup"))
        #expect(try run("loan", "borrow", book).status == 0)
        #expect(try run("hold", "list").stdout.contains("No holds."))
        let unknown = try run("hold", "cancel", "nope")
        #expect(unknown.status != 0 && unknown.stderr.contains("no hold with id 'nope'"))
    }

    @Test func cancellingAHoldMovesTheNextUp() throws {
        let book = try #require(try json(try run("--json", "book", "add", "--title", "Emma", "--author", "J"))["id"] as? String)
        _ = try run("loan", "checkout", book, "--name", "Mrs Hudson")
        #expect(try run("signup", "--login", "--email", "bob@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let bobs = try #require(try json(try run("--json", "hold", "place", book))["id"] as? String)
        #expect(try run("signup", "--login", "--email", "cy@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        #expect(try json(try run("--json", "hold", "place", book))["position"] as? Int == 2)
        try librarian()
        let cancelled = try run("hold", "cancel", bobs)
        #expect(cancelled.status == 0 && cancelled.stdout.contains("cancelled"))
        let line = try run("hold", "queue", book).stdout
        #expect(line.contains("cy") && line.contains("waiting, number 1 in line") && !line.contains("bob"))
        let asOf = try run("audit", "as-of", Date().addingTimeInterval(60).formatted(.iso8601), "holds", book).stdout
        #expect(asOf.contains("cy") && asOf.contains("waiting, number 1 in line"), "\(asOf)")
    }
}
