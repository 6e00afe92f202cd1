import Foundation
import Testing

/// `shelfmark hold ...` and `loan renew --all`, run as the built binary across processes.
@Suite("CLI: holds")
struct CLIHoldTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    /// Signs up a librarian (promoted by the operator) and logs in as them.
    func librarian() async throws {
        _ = try await run("logout")
        _ = try await run("signup", "--email", "lib@example.org", "--country", "FR", stdin: "Member-Pass1\n")
        _ = try await run("logout")
        #expect(try await run("user", "promote", "lib@example.org").status == 0)
        #expect(try await run("login", "--email", "lib@example.org", stdin: "Member-Pass1\n").status == 0)
    }

    func json(_ result: CLIResult) async throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    @Test func placeListQueueReturnBorrowAndCancel() async throws {
        let book = try await #require(try json(try await run("--json", "book", "add", "--title", "Dune", "--author", "F"))["id"] as? String)
        let walkIn = try await #require(
            try json(try await run("--json", "loan", "checkout", book, "--name", "Mrs Hudson"))["id"] as? String)
        #expect(try await run("signup", "--login", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)

        let placed = try await run("hold", "place", book)
        #expect(placed.status == 0 && placed.stdout.contains("waiting, number 1 in line"), "\(placed.stdout)\(placed.stderr)")
        #expect(try await run("hold", "list").stdout.contains("Dune"))
        let twice = try await run("hold", "place", book)
        #expect(twice.status != 0 && twice.stderr.contains("you already hold “Dune”: you are number 1 in line"))
        #expect(try await run("loan", "renew", "--all").stdout.contains("No loans."))
        let both = try await run("loan", "renew", "--all", walkIn)
        #expect(both.status != 0)

        try await librarian()
        #expect(try await run("hold", "queue", book).stdout.contains("ada"))
        #expect(try await run("hold", "list", "--ready").stdout.contains("No holds."))
        let back = try await run("loan", "return", walkIn)
        let said = "Set this copy aside for ada, who waited for it: ready for pickup until "
        #expect(back.status == 0 && back.stdout.contains(said), "\(back.stdout)")
        #expect(try await run("hold", "list", "--ready").stdout.contains("ready until"))
        // Returned again, or as JSON: nothing more is set aside, and it had been returned
        let retried = try await run("loan", "return", walkIn)
        #expect(
            retried.status == 0 && retried.stdout.contains("It had been returned already, on ") && !retried.stdout.contains("Set this copy")
        )
        let again = try await json(try await run("--json", "loan", "return", walkIn))
        #expect(again["returnedAt"] != nil && again["setAsideFor"] == nil && again["returnedBefore"] as? Bool == true)

        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 0)
        #expect(try await run("notices", "list").stdout.contains("ready-for-pickup"))
        #expect(try await run("loan", "borrow", book).status == 0)
        #expect(try await run("hold", "list").stdout.contains("No holds."))
        let unknown = try await run("hold", "cancel", "nope")
        #expect(unknown.status != 0 && unknown.stderr.contains("no hold with id 'nope'"))
    }

    @Test func cancellingAHoldMovesTheNextUp() async throws {
        let book = try await #require(try json(try await run("--json", "book", "add", "--title", "Emma", "--author", "J"))["id"] as? String)
        _ = try await run("loan", "checkout", book, "--name", "Mrs Hudson")
        #expect(try await run("signup", "--login", "--email", "bob@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let bobs = try await #require(try json(try await run("--json", "hold", "place", book))["id"] as? String)
        #expect(try await run("signup", "--login", "--email", "cy@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        await #expect(try json(try await run("--json", "hold", "place", book))["position"] as? Int == 2)
        try await librarian()
        let cancelled = try await run("hold", "cancel", bobs)
        #expect(cancelled.status == 0 && cancelled.stdout.contains("cancelled"))
        let line = try await run("hold", "queue", book).stdout
        #expect(line.contains("cy") && line.contains("waiting, number 1 in line") && !line.contains("bob"))
        let asOf = try await run("audit", "as-of", Date().addingTimeInterval(60).formatted(.iso8601), "holds", book).stdout
        #expect(asOf.contains("cy") && asOf.contains("waiting, number 1 in line"), "\(asOf)")
    }
}
