import Foundation
import Testing

/// The member's saved language on the command line: `signup --language`, `account edit --language`,
/// and the LANGUAGE column of account tables.
@Suite("CLI: language preference")
struct CLILanguagePreferenceTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(["--lang", "en"] + arguments, database: db.path, stdin: stdin)
    }

    /// The LANGUAGE cell of the one account row a table shows.
    func language(_ table: String) -> String? {
        let lines = table.split(separator: "\n").map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("ID ") }), header + 1 < lines.count,
            let column = lines[header].range(of: "LANGUAGE")
        else { return nil }
        let row = lines[header + 1]
        let start = lines[header].distance(from: lines[header].startIndex, to: column.lowerBound)
        return row.dropFirst(start).split(separator: " ").first.map(String.init)
    }

    @Test func aMemberSignsUpInFrenchThenChangesTheirLanguage() async throws {
        let signedUp = try await run(
            "signup", "--login", "--email", "ada@example.org", "--country", "FR", "--language", "fr-CA", stdin: "Member-Pass1\n")
        #expect(signedUp.status == 0, "\(signedUp.stderr)")
        #expect(language(signedUp.stdout) == "fr")
        let edited = try await run("account", "edit", "--language", "en")
        #expect(edited.status == 0 && language(edited.stdout) == "en", "\(edited.stdout)\(edited.stderr)")
        #expect(language(try await run("account", "show").stdout) == "en")
        let json = try JSONSerialization.jsonObject(with: Data(try await run("--json", "account", "show").stdout.utf8)) as? [String: Any]
        #expect(json?["language"] as? String == "en")
    }

    @Test func noChoiceIsADashAndAnUnknownLanguageIsRefusedNamingTheField() async throws {
        let signedUp = try await run("signup", "--login", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n")
        #expect(language(signedUp.stdout) == "-")
        let refused = try await run("account", "edit", "--language", "de")
        #expect(refused.status == 64 && refused.stderr.contains("language"), "\(refused.stderr)")
        #expect(language(try await run("account", "show").stdout) == "-")
    }
}
