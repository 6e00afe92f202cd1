import Foundation
import Testing

@Suite("CLI: circulation")
struct CLICirculationTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    func json(_ result: CLIResult) async throws -> Any { try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) }

    @Test func noLoansAtAllIsSaidOnce() async throws {
        let none = try await run("loan", "list")
        #expect(none.status == 0 && none.stdout == "No loans.\n", "\(none.stdout)")
        let past = try await run("loan", "list", "--offset", "40")
        #expect(past.stdout == "No loans.\n", "\(past.stdout)")
    }

    @Test func borrowListRenewReturnAndNoticesAcrossProcesses() async throws {
        let book = try await #require(
            (try json(try await run("--json", "book", "add", "--title", "Dune", "--author", "F")) as? [String: Any])?["id"] as? String)
        #expect(try await run("signup", "--login", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let borrowed = try await run("--json", "loan", "borrow", book)
        #expect(borrowed.status == 0, "\(borrowed.stderr)")
        let loan = try await #require(((try json(borrowed) as? [String: Any])?["loans"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(try await run("loan", "list").stdout.contains("Dune"))
        #expect(try await run("loan", "renew", loan).stdout.contains("renewed 1x"))
        let refused = try await run("loan", "borrow", book)
        #expect(refused.status != 0 && refused.stderr.contains("already borrowed"))

        _ = try await run("logout")
        // A scan in the future is a rehearsal: it lists the overdue notice it would issue, and issues none.
        let asOf = Date().addingTimeInterval(40 * 24 * 3600).formatted(.iso8601)
        let rehearsal = try await run("notices", "scan", "--as-of", asOf)
        let line = try #require(rehearsal.stdout.split(separator: "\n").first { $0.hasPrefix("overdue") }, "\(rehearsal.stdout)")
        #expect(line.contains("Dune") && line.contains(loan) && line.contains(#/[A-Z][a-z]+ \d{1,2}, \d{4} \d{2}:\d{2}/#), "\(line)")
        #expect(rehearsal.stdout.hasPrefix("WOULD ISSUE") && rehearsal.stdout.contains("would issue 1 notice; none was issued"))
        let rehearsed = try await json(try await run("--json", "notices", "scan", "--as-of", asOf)) as? [String: Int]
        #expect(rehearsed == ["issued": 0, "wouldIssue": 1])
        #expect(try await run("notices", "scan").stdout.contains("Issued 0 notices."))
        #expect(try await run("loan", "list", "--member", "ada@example.org").stdout.contains("Dune"))

        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 0)
        let notices = try await run("notices", "list")
        #expect(notices.stdout.contains("0 unread."), "the rehearsal issued nothing")
        #expect(try await run("notices", "read", "--all").status == 0)
        #expect(try await run("notices", "list").stdout.contains("0 unread."))
        #expect(try await run("loan", "return", loan).stdout.contains("returned"))
        #expect(try await run("loan", "return", loan).status == 0)
    }

    @Test func walkInCheckoutByTheOperator() async throws {
        let book = try await #require(
            (try json(try await run("--json", "book", "add", "--title", "Dune", "--author", "F")) as? [String: Any])?["id"] as? String)
        let checkout = try await run("loan", "checkout", book, "--name", "Mrs Hudson")
        #expect(checkout.status == 0 && checkout.stdout.contains("Mrs Hudson"))
        #expect(try await run("loan", "list").stdout.contains("Mrs Hudson"))
        let full = try await run("loan", "checkout", book, "--name", "Watson")
        #expect(full.status != 0 && full.stderr.contains("no copy"))
        let delete = try await run("book", "delete", book)
        #expect(delete.status != 0 && delete.stderr.contains("on loan"))
    }

    @Test(
        "circulation errors: one line, non-zero exit",
        arguments: [
            (["loan", "borrow", "7d2c1a0e-0000-4000-8000-000000000000"], "log in first"),
            (["loan", "return", "nope"], "no loan with id 'nope'"),
            (["notices", "scan", "--as-of", "yesterday"], "--as-of: must be a time in ISO 8601 form"),
            (["notices", "list"], "log in first"),
        ])
    func errors(arguments: [String], message: String) async throws {
        let result = try await shelfmark(arguments, database: db.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
