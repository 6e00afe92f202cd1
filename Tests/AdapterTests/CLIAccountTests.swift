import Foundation
import Testing

@Suite("CLI: accounts")
struct CLIAccountTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    var sessionFile: URL { URL(fileURLWithPath: db.path).deletingLastPathComponent().appendingPathComponent("config/shelfmark/session") }

    @Test func signupWithLoginSavesASessionThatLaterCommandsUseUntilLogout() async throws {
        let signup = try await run("signup", "--login", "--email", "ada@example.org", "--country", "gb", stdin: "Analytical-1\n")
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stdout.contains("Signed up and logged in as ada@example.org"))
        let attributes = try FileManager.default.attributesOfItem(atPath: sessionFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        #expect(try await run("whoami").stdout.contains("ada@example.org"))
        let forbidden = try await run("book", "add", "--title", "T", "--author", "A")
        #expect(forbidden.status != 0 && forbidden.stderr.contains("only a librarian"))

        #expect(try await run("logout").stdout.contains("Logged out."))
        #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
        #expect(try await run("whoami").stdout.contains("operator"))
        #expect(try await run("book", "add", "--title", "T", "--author", "A").status == 0)
    }

    @Test func theOperatorCreatesTheFirstLibrarianAndPromotes() async throws {
        let added = try await run("user", "add", "--email", "lib@example.org", "--role", "librarian", stdin: "Librarian-Pass1\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await run("signup", "--email", "bob@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        _ = try await run("logout")
        #expect(try await run("user", "promote", "bob@example.org").stdout.contains("is now a librarian"))
        let list = try await run("--json", "user", "list")
        #expect(list.stdout.components(separatedBy: "\"librarian\"").count == 3)

        let login = try await run("login", "--email", "bob@example.org", stdin: "Member-Pass1\n")
        #expect(login.status == 0 && login.stdout.contains("Logged in as bob@example.org"))
        #expect(try await run("book", "add", "--title", "By Bob", "--author", "A").status == 0)
        #expect(try await run("user", "demote", "lib@example.org").stdout.contains("is now a member"))
    }

    @Test(
        "account errors: one line, non-zero exit",
        arguments: [
            (["signup", "--email", "nope", "--country", "FR"], "Weak\n", "--email: must be an email address"),
            (["signup", "--email", "a@b.org", "--country", "ZZ"], "Valid-Pass1\n", "not a country code we know"),
            (["login", "--email", "ghost@example.org"], "Valid-Pass1\n", "wrong email address, username or password"),
            // The password is read from standard input, which the message names: no option is `password`.
            (["login", "--email", "ghost@example.org"], nil, "the password on standard input: is required"),
            (["signup", "--email", "a@b.org", "--country", "FR"], "short\n", "the password on standard input: must be at least"),
            (["signup", "--email", "a..b@b.org", "--country", "FR"], "Valid-Pass1\n", "--email: must be an email address"),
            (["user", "promote", "ghost@example.org"], nil, "'ghost@example.org'"),
        ])
    func errors(arguments: [String], stdin: String?, message: String) async throws {
        let result = try await shelfmark(arguments, database: db.path, stdin: stdin)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func theCountryList() async throws {
        let list = try await run("countries", "list", "--all")
        #expect(list.stdout.contains("FR    France") && list.stdout.contains("Allemagne"))
        #expect(try await run("countries", "list").stdout.contains("1-20 of "))
        #expect(try await run("countries", "default", "--accept-language", "fr-CA,fr;q=0.8").stdout.contains("CA  Canada"))
        #expect(try await run("countries", "default").stdout.contains("No country could be told"))
    }
}
