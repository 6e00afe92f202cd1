import Foundation
import Testing

@Suite("CLI: catalogue")
struct CLICatalogueTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String...) async throws -> CLIResult { try await shelfmark(arguments, database: db.path) }

    func addedID(_ result: CLIResult) async throws -> String {
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        return try #require(object["id"] as? String)
    }

    @Test func addListShowEditDelete() async throws {
        let added = try await run(
            "--json", "book", "add", "--title", "The Dispossessed", "--author", "Ursula K. Le Guin",
            "--isbn", "0-06-051275-X", "--category", "sf", "--copies", "2")
        #expect(added.status == 0, "\(added.stderr)")
        let id = try await addedID(added)

        let list = try await run("book", "list")
        #expect(list.status == 0)
        #expect(list.stdout.contains("The Dispossessed") && list.stdout.contains(id) && list.stdout.contains("2/2"))

        let show = try await run("book", "show", id)
        #expect(show.stdout.contains("9780060512750"))

        let edit = try await run("book", "edit", id, "--publisher", "Harper", "--copies", "3")
        #expect(edit.status == 0 && edit.stdout.contains("Harper") && edit.stdout.contains("Copies      3"))

        let search = try await run("--json", "book", "list", "--query", "dispos", "--sort", "title")
        #expect(search.stdout.contains("\"total\" : 1"))

        let delete = try await run("book", "delete", id)
        #expect(delete.status == 0 && delete.stdout.contains("Withdrew 1 book."))
        #expect(try await run("book", "list").stdout.contains("No books."))
    }

    /// Found by a walk at the command line: a field error named the API's field (`authors: is
    /// required`, `borrowerName: …`), not the option the librarian typed.
    @Test func aFieldErrorNamesTheOptionTheJSONProblemTheAPIsField() async throws {
        let empty = try await run("book", "add", "--title", "", "--author", "Frank Herbert")
        #expect(empty.status != 0 && empty.stderr.hasPrefix("Error: --title: is required"), "\(empty.stderr)")
        let long = try await run("book", "add", "--title", "Dune", "--author", "A", "--author", String(repeating: "x", count: 300))
        #expect(long.stderr.contains("--author number 2: must be at most"), "\(long.stderr)")
        let id = try await addedID(try await run("--json", "book", "add", "--title", "Dune", "--author", "F"))
        let nameless = try await run("loan", "checkout", id, "--name", " ")
        #expect(nameless.stderr == "Error: --name: is required\n", "\(nameless.stderr)")
        // Only an option the command was given is named: a search's title is a word, not --title
        let search = try await run("search")
        #expect(search.status != 0 && !search.stderr.contains("--title"), "\(search.stderr)")
        #expect(search.stderr == "Error: give at least one of a title, --author or --query\n", "\(search.stderr)")
        let blank = try await run("search", " ", "--author", "")
        #expect(blank.stderr == "Error: give at least one of a title, --author or --query\n", "\(blank.stderr)")
        let query = try await run("book", "list", "--query", "foo:bar")
        #expect(query.stderr.hasPrefix("Error: --query: 'foo:' is not a field to search in"), "\(query.stderr)")
        // --json prints the API's problem document, with the API's names
        let json = try await run("--json", "book", "add", "--title", "", "--author", "F")
        let problem = try #require(try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any], "\(json.stderr)")
        #expect((problem["errors"] as? [[String: Any]])?.first?["field"] as? String == "title")
    }

    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() async throws {
        let other = TemporaryDatabase()
        let added = try await run("--db", other.path, "--json", "book", "add", "--title", "T", "--author", "A")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await run("book", "list", "--db", other.path).stdout.contains("1-1 of 1"))
        #expect(try await run("book", "list").stdout.contains("No books."))
    }

    @Test(
        "bad input: one line on stderr, non-zero exit, nothing written",
        arguments: [
            ["book", "add", "--author", "A"],
            ["book", "add", "--title", "T", "--author", "A", "--isbn", "978-0-306-40615-8"],
            ["book", "add", "--title", "T", "--author", "A", "--copies", "0"],
            ["book", "show", "nope"],
            ["book", "delete", "7d2c1a0e-0000-4000-8000-000000000000"],
            ["book", "list", "--limit", "0"],
            ["book", "clear"],
        ])
    func badInput(arguments: [String]) async throws {
        let result = try await shelfmark(arguments, database: db.path)
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal") && result.stdout.isEmpty)
        #expect(try await run("book", "list").stdout.contains("No books."))
    }

    @Test func deleteSeveralAndClear() async throws {
        var ids: [String] = []
        for n in 1...3 { await ids.append(try addedID(try await run("--json", "book", "add", "--title", "Book \(n)", "--author", "A"))) }
        let refused = try await run("book", "delete", ids[0], "7d2c1a0e-0000-4000-8000-000000000000")
        #expect(refused.status != 0)
        #expect(try await run("book", "list").stdout.contains("1-3 of 3"))
        #expect(try await run("book", "delete", ids[0], ids[1]).stdout.contains("Withdrew 2 books."))
        let cleared = try await run("book", "clear", "--yes")
        #expect(cleared.status == 0 && cleared.stdout.contains("Withdrew 1 book."))
    }

    @Test func rebuildingProjectionsKeepsTheCatalogue() async throws {
        _ = try await run("book", "add", "--title", "Kept", "--author", "A")
        let rebuilt = try await run("projections", "rebuild")
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("Rebuilt the read models from 1 event."))
        #expect(try await run("book", "list").stdout.contains("Kept"))
    }

    @Test func helpExplainsTheCommands() async throws {
        let help = try await run("--help")
        #expect(help.status == 0)
        for word in ["serve", "book", "projections", "--db", "--json"] { #expect(help.stdout.contains(word), "\(word)") }
        #expect(try await run("book", "add", "--help").stdout.contains("--isbn"))
    }

    @Test(
        "every command's help works (ArgumentParser validates each command's options there)",
        arguments: [
            "serve", "book add", "book import", "book list", "book show", "book edit", "book delete", "book clear", "signup", "login",
            "logout", "whoami", "user list", "user add", "user promote", "user demote", "countries list", "countries default",
            "loan borrow", "loan return", "loan renew", "loan list", "loan checkout", "notices scan", "notices list", "notices read",
            "search", "bookmark add", "bookmark list", "bookmark remove", "projections rebuild", "audit verify", "audit export",
            "audit history", "audit replay", "audit as-of",
        ])
    func help(command: String) async throws {
        let result = try await shelfmark(command.split(separator: " ").map(String.init) + ["--help"], database: db.path)
        #expect(result.status == 0 && result.stdout.contains("USAGE"), "\(command): \(result.stdout)\(result.stderr)")
    }
}
