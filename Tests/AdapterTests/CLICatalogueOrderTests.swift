import Foundation
import Testing

@Suite("CLI: catalogue order and duplicate ISBNs")
struct CLICatalogueOrderTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String...) async throws -> CLIResult { try await shelfmark(arguments, database: db.path) }

    @Test func aSecondRecordOfAnISBNNeedsAllowDuplicate() async throws {
        let first = try await run("--json", "book", "add", "--title", "Dune", "--author", "Frank Herbert", "--isbn", "0-441-17271-7")
        #expect(first.status == 0, "\(first.stderr)")
        let id = try #require((try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["id"] as? String)

        let again = try await run("book", "add", "--title", "Dune", "--author", "Frank Herbert", "--isbn", "9780441172719")
        #expect(again.status != 0 && again.stderr.contains("Dune") && again.stderr.contains(id), "\(again)")
        let allowed = try await run(
            "book", "add", "--title", "Dune", "--author", "Frank Herbert", "--isbn", "9780441172719", "--allow-duplicate")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try await run("--json", "book", "list").stdout.contains("\"total\" : 2"))
    }

    @Test func listingBySurnameAndTitleWithoutArticle() async throws {
        for (title, author) in [("Zero", "Aaron Zimmer"), ("The Hobbit", "J. R. R. Tolkien"), ("White Teeth", "Zadie Smith")] {
            #expect(try await run("book", "add", "--title", title, "--author", author).status == 0)
        }
        func order(_ sort: String) async throws -> [String] {
            let out = try await run("--json", "book", "list", "--sort", sort).stdout
            let items = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["items"] as? [[String: Any]]
            return items?.compactMap { $0["title"] as? String } ?? []
        }
        await #expect(try order("author") == ["White Teeth", "The Hobbit", "Zero"])
        await #expect(try order("title") == ["The Hobbit", "White Teeth", "Zero"])
    }
}
