import Foundation
import Testing

@Suite("CLI: catalogue order and duplicate ISBNs")
struct CLICatalogueOrderTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String...) throws -> CLIResult { try shelfmark(arguments, database: db.path) }

    @Test func aSecondRecordOfAnISBNNeedsAllowDuplicate() throws {
        let first = try run("--json", "book", "add", "--title", "Dune", "--author", "Frank Herbert", "--isbn", "0-441-17271-7")
        #expect(first.status == 0, "\(first.stderr)")
        let id = try #require((try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["id"] as? String)

        let again = try run("book", "add", "--title", "Dune", "--author", "Frank Herbert", "--isbn", "9780441172719")
        #expect(again.status != 0 && again.stderr.contains("Dune") && again.stderr.contains(id), "\(again)")
        let allowed = try run("book", "add", "--title", "Dune", "--author", "Frank Herbert", "--isbn", "9780441172719", "--allow-duplicate")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try run("--json", "book", "list").stdout.contains("\"total\" : 2"))
    }

    @Test func listingBySurnameAndTitleWithoutArticle() throws {
        for (title, author) in [("Zero", "Aaron Zimmer"), ("The Hobbit", "J. R. R. Tolkien"), ("White Teeth", "Zadie Smith")] {
            #expect(try run("book", "add", "--title", title, "--author", author).status == 0)
        }
        func order(_ sort: String) throws -> [String] {
            let out = try run("--json", "book", "list", "--sort", sort).stdout
            let items = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["items"] as? [[String: Any]]
            return items?.compactMap { $0["title"] as? String } ?? []
        }
        #expect(try order("author") == ["White Teeth", "The Hobbit", "Zero"])
        #expect(try order("title") == ["The Hobbit", "White Teeth", "Zero"])
    }
}
