import Foundation
import Testing

@Suite("CLI: the front desk")
struct CLIDeskTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    func object(_ result: CLIResult) async throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
    }

    func book(_ title: String) async throws -> String {
        try await #require(try object(try await run("--json", "book", "add", "--title", title, "--author", "A"))["id"] as? String)
    }

    @Test func theOperatorLendsByCardOrEmailAndReadsTheMembersRecord() async throws {
        let (dune, emma) = await (try book("Dune"), try book("Emma"))
        #expect(
            try await run("signup", "--email", "ada@example.org", "--name", "Ada", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let record = try await object(try await run("--json", "user", "show", "ada@example.org"))
        let card = try #require((record["user"] as? [String: Any])?["cardNumber"] as? String)
        let grouped = "\(card.prefix(5)) \(card.suffix(5))"
        let shown = try await run("user", "show", card)
        #expect(shown.status == 0 && shown.stdout.contains("CARD") && shown.stdout.contains(grouped), "\(shown.stdout)\(shown.stderr)")

        let lent = try await run("desk", "lend", "--card", grouped, dune)
        #expect(lent.status == 0 && lent.stdout.hasPrefix("Lent 1 book to Ada (card \(grouped)).") && lent.stdout.contains("Dune"))
        let again = try await run("desk", "lend", "--email", "ada@example.org", dune)
        #expect(again.status != 0 && again.stderr.contains("“Dune” is asked for twice, or Ada has it on loan already"), "\(again.stderr)")
        let typo = try await run("desk", "lend", "--card", String(card.dropLast()) + (card.last == "0" ? "1" : "0"), emma)
        #expect(typo.status != 0 && typo.stderr.contains("is not a library card number") && typo.stderr.contains("mistyped"))
        let both = try await run("desk", "lend", "--card", card, "--email", "ada@example.org", emma)
        #expect(both.status != 0 && both.stderr.contains("--card") && both.stderr.contains("--email"))
        let json = try await object(try await run("--json", "desk", "lend", "--email", "ada@example.org", emma))
        #expect((json["member"] as? [String: Any])?["cardNumber"] as? String == card && (json["loans"] as? [Any])?.count == 1)

        #expect(try await run("loan", "list", "--member", card).stdout.contains("Emma"))
        #expect(try await run("user", "show", "ada@example.org").stdout.contains("Emma"))
        #expect(try await run("user", "issue-cards").stdout.contains("Every account has a library card already."))
    }

    @Test func walkInBorrowersAreListedByNameAndAMemberIsNotAName() async throws {
        let dune = try await book("Dune")
        #expect(try await run("loan", "checkout", dune, "--name", "Mrs Hudson").status == 0)
        let listed = try await run("loan", "list", "--borrower", "MRS  hudson")
        #expect(listed.status == 0 && listed.stdout.contains("Mrs Hudson") && listed.stdout.contains("Dune"), "\(listed.stderr)")
        let byMember = try await run("loan", "list", "--member", "Mrs Hudson")
        // Said with the command line's option: the API's `borrower` parameter is no word of the CLI's.
        #expect(
            byMember.status != 0 && byMember.stderr.contains("--member: 'Mrs Hudson' is not a member's")
                && byMember.stderr.contains("give it with --borrower instead"), "\(byMember.stderr)")
        let json = try await run("--json", "loan", "list", "--member", "Mrs Hudson")
        #expect(json.stderr.contains("give the name as borrower instead"), "\(json.stderr)")
    }

    @Test func theOperatorRenewsAndTakesBackWhatTheDeskLentWithoutLoggingIn() async throws {
        let dune = try await book("Dune")
        let walkIn = try await #require(
            try object(try await run("--json", "loan", "checkout", dune, "--name", "Mrs Hudson"))["id"] as? String)
        #expect(try await object(try await run("--json", "loan", "renew", walkIn))["renewals"] as? Int == 1)
        #expect(try await object(try await run("--json", "loan", "return", walkIn))["returnedAt"] is String)
        let history = try await run("audit", "history", "--loan", walkIn)
        #expect(history.status == 0 && history.stdout.contains("loan.returned.v1") && history.stdout.contains("operator"))
        let listed = try await object(try await run("--json", "loan", "list", "--borrower", "Mrs Hudson"))
        #expect((listed["items"] as? [Any])?.isEmpty == true, "\(listed)")

        #expect(
            try await run("signup", "--email", "ada@example.org", "--name", "Ada", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let lent = try await object(try await run("--json", "desk", "lend", "--email", "ada@example.org", dune))
        let loan = try #require(((lent["loans"] as? [[String: Any]])?.first)?["id"] as? String)
        #expect(try await object(try await run("--json", "loan", "renew", loan))["renewals"] as? Int == 1)
        #expect(try await object(try await run("--json", "loan", "return", loan))["returnedAt"] is String)
        let record = try await object(try await run("--json", "user", "show", "ada@example.org"))
        #expect((record["loans"] as? [Any])?.isEmpty == true, "\(record)")
    }

    @Test func aMemberShowsAndDrawsTheirCard() async throws {
        #expect(
            try await run("signup", "--login", "--email", "ada@example.org", "--name", "Ada", "--country", "FR", stdin: "Member-Pass1\n")
                .status
                == 0)
        let card = try await #require(try object(try await run("--json", "account", "card"))["cardNumber"] as? String)
        let grouped = "\(card.prefix(5)) \(card.suffix(5))"
        #expect(try await run("account", "card").stdout.contains("Your library card: \(grouped)."))
        #expect(try await run("account", "show").stdout.contains(grouped))
        let file = db.folder.appendingPathComponent("card.svg").path
        let drawn = try await run("account", "card", "--svg", file)
        #expect(drawn.status == 0 && drawn.stdout.contains("Drew library card \(grouped) in \(file)."), "\(drawn.stderr)")
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg") && svg.contains(grouped))
        let twice = try await run("account", "card", "--svg", file)
        #expect(twice.status != 0 && twice.stderr.contains("exists already"))
        let desk = try await run("desk", "lend", "--email", "ada@example.org", "7d2c1a0e-0000-4000-8000-000000000000")
        #expect(desk.status != 0 && desk.stderr.contains("only a librarian"), "\(desk.stderr)")
    }
}
