import Foundation
import Testing

@Suite("CLI: Prolific keys")
struct ProlificCLITests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    @Test func theOperatorMakesAKeyForALibrarianAndRevokesIt() async throws {
        #expect(try await run("user", "add", "--email", "lib@example.org", "--role", "librarian", stdin: "Librarian-Pass1\n").status == 0)
        let created = try await run("compat", "prolific-key", "create", "--as", "lib@example.org")
        #expect(created.status == 0, "\(created.stderr)")
        let lines = created.stdout.split(separator: "\n").map(String.init)
        let key = try #require(lines.first)
        #expect(key.count == 24 && key.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(created.stdout)")
        #expect(lines.count == 2 && lines[1].contains("/\(key)/"), "one line on how to use it: \(created.stdout)")
        #expect(!lines[1].contains("8080") && lines[1].contains("http://HOST:PORT/\(key)/"), "no invented port: \(created.stdout)")

        let json = try await run("--json", "compat", "prolific-key", "create", "--as", "lib@example.org")
        #expect(json.status == 0 && json.stdout.contains(#""baseURL""#), "\(json.stdout)")

        let revoked = try await run("compat", "prolific-key", "revoke", key)
        #expect(revoked.status == 0 && revoked.stdout.contains("Revoked"), "\(revoked.stderr)")
        let again = try await run("compat", "prolific-key", "revoke", key)
        #expect(again.status == 0 && again.stdout.contains("revoked already") && !again.stdout.contains("Revoked:"), "\(again.stdout)")
        let unknown = try await run("compat", "prolific-key", "revoke", "0123456789abcdef01234567")
        #expect(unknown.status != 0 && unknown.stderr.hasPrefix("Error: no such key"), "\(unknown.stderr)")
    }

    @Test func aMemberGetsNoKeyAndTheHelpExplains() async throws {
        #expect(try await run("user", "add", "--email", "bob@example.org", stdin: "Member-Pass1\n").status == 0)
        let refused = try await run("compat", "prolific-key", "create", "--as", "bob@example.org")
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("member's account"), "\(refused.stderr)")
        let nobody = try await run("compat", "prolific-key", "create", "--as", "nobody@example.org")
        #expect(nobody.status != 0 && nobody.stderr.contains("nobody@example.org"), "\(nobody.stderr)")
        let help = try await run("compat", "prolific-key", "--help")
        #expect(help.status == 0 && help.stdout.contains("24 lower-case hex") && help.stdout.contains("--prolific"), "\(help.stdout)")
        #expect(try await run("serve", "--help").stdout.contains("--prolific"))
    }
}
