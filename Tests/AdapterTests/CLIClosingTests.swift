import Foundation
import Testing

/// `shelfmark account close` and `shelfmark user close`, run as the built binary.
@Suite("CLI: closing accounts")
struct CLIClosingTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    @Test func aMemberClosesTheirAccountWithYesAndTheSessionIsForgotten() async throws {
        #expect(
            try await run("signup", "--login", "--email", "ada@example.org", "--name", "Ada", "--country", "FR", stdin: "Member-Pass1\n")
                .status
                == 0)
        // Not on a terminal and without --yes: nothing is closed.
        let unasked = try await run("account", "close")
        #expect(unasked.status == 64 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")
        #expect(try await run("account", "show").stdout.contains("ada@example.org"))
        let closed = try await run("account", "close", "--yes")
        #expect(closed.status == 0 && closed.stdout.contains("Closed the account of ada@example.org"), "\(closed.stdout)\(closed.stderr)")
        #expect(try await run("whoami").stdout.contains("operator"))
        let login = try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n")
        #expect(login.status != 0)
        #expect(try await run("signup", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        #expect(try await run("audit", "verify").status == 0)
    }

    @Test func theOperatorClosesAMembersAccountOnceTheirBooksAreBack() async throws {
        let book = try #require(
            (try JSONSerialization.jsonObject(
                with: Data(try await run("--json", "book", "add", "--title", "Dune", "--author", "F").stdout.utf8))
                as? [String: Any])?["id"] as? String)
        #expect(
            try await run("signup", "--login", "--email", "bob@example.org", "--name", "Bob", "--country", "FR", stdin: "Member-Pass1\n")
                .status
                == 0)
        let loan = try #require(
            ((try JSONSerialization.jsonObject(with: Data(try await run("--json", "loan", "borrow", book).stdout.utf8)) as? [String: Any])?[
                "loans"]
                as? [[String: Any]])?.first?["id"] as? String)
        _ = try await run("logout")
        let refused = try await run("user", "close", "bob@example.org", "--yes")
        #expect(refused.status == 1 && refused.stderr.contains("books are on loan to them: return “Dune”"), "\(refused.stderr)")
        #expect(try await run("login", "--email", "bob@example.org", stdin: "Member-Pass1\n").status == 0)
        #expect(try await run("loan", "return", loan).status == 0)
        _ = try await run("logout")
        #expect(try await run("--json", "user", "close", "bob@example.org", "--yes").stdout.isEmpty)
        let shown = try await run("book", "show", book)
        #expect(shown.stdout.contains("erased member") && !shown.stdout.contains("Bob"), "\(shown.stdout)\(shown.stderr)")
        let again = try await run("user", "close", "bob@example.org", "--yes")
        #expect(again.status == 3, "\(again.stderr)")
    }
}
