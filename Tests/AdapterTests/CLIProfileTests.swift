import Foundation
import Testing

/// Who the command line acts as (signup leaves it alone unless --login; refusals say who and how
/// to switch), the member's own account, and the last librarian.
@Suite("CLI: sessions, profiles and roles")
struct CLIProfileTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    @Test func signupLeavesTheSessionAloneUnlessAskedToLogIn() async throws {
        let first = try await run("signup", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains(
                "Signed up as ada@example.org. The CLI is still acting as the operator (no login); use --login to switch"))
        let operatorIs = try await run("whoami")
        #expect(operatorIs.stdout.contains("The CLI is acting as the operator (no login)"))
        #expect(operatorIs.stdout.contains("shelfmark login --email"))

        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 0)
        let second = try await run("signup", "--email", "bob@example.org", "--country", "FR", stdin: "Member-Pass1\n")
        #expect(second.stdout.contains("The CLI is still acting as ada (ada@example.org), a member; use --login to switch"))
        let whoami = try await run("whoami")
        #expect(whoami.stdout.contains("The CLI is acting as ada (ada@example.org), a member. To switch: shelfmark logout"))

        let switched = try await run("signup", "--login", "--email", "cy@example.org", "--country", "FR", stdin: "Member-Pass1\n")
        #expect(switched.stdout.contains("Signed up and logged in as cy@example.org"))
        #expect(try await run("whoami").stdout.contains("cy (cy@example.org)"))
    }

    @Test func aLibrariansRefusalSaysWhoTheCLIActsAsAndHowToSwitch() async throws {
        #expect(try await run("signup", "--login", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let refused = try await run("book", "add", "--title", "T", "--author", "A")
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "Error: only a librarian may do this, and the CLI is acting as ada (ada@example.org), a member. To switch: "
                + "shelfmark logout (to act as the operator), or shelfmark login --email ADDRESS (as a librarian)\n")
        // --json prints the problem exactly as the API answers it.
        let json = try await run("--json", "user", "list")
        #expect(json.status == 1 && json.stderr.contains("urn:shelfmark:problem:forbidden"))
        #expect(json.stderr.contains("only a librarian may do this") && !json.stderr.contains("acting as"))
    }

    @Test func aMemberShowsAndEditsTheirAccount() async throws {
        #expect(try await run("signup", "--login", "--email", "ada@example.org", "--country", "FR", stdin: "Member-Pass1\n").status == 0)
        let edited = try await run("account", "edit", "--name", "Ada Lovelace", "--country", "gb", "--email", "Ada@Lovelace.org")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("Updated the account of ada@lovelace.org."))
        let shown = try await run("account", "show")
        #expect(shown.stdout.contains("Ada Lovelace") && shown.stdout.contains("ada@lovelace.org") && shown.stdout.contains("GB"))
        _ = try await run("logout")
        #expect(try await run("login", "--email", "ada@example.org", stdin: "Member-Pass1\n").status == 1)
        #expect(try await run("login", "--email", "ada@lovelace.org", stdin: "Member-Pass1\n").status == 0)

        let nothing = try await run("account", "edit")
        #expect(nothing.status == 64 && nothing.stderr.contains("--name"))
        let bad = try await run("account", "edit", "--country", "ZZ")
        #expect(bad.status == 64 && bad.stderr.contains("'ZZ' is not a country code we know"))
        _ = try await run("logout")
        let asOperator = try await run("account", "show")
        #expect(asOperator.status == 1 && asOperator.stderr.contains("log in"))
    }

    @Test func theLastLibrarianCannotBeDemotedOnTheCommandLine() async throws {
        #expect(try await run("user", "add", "--email", "lib@example.org", "--role", "librarian", stdin: "Librarian-Pass1\n").status == 0)
        let refused = try await run("user", "demote", "lib@example.org")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("lib (lib@example.org) is the library's last librarian"), "\(refused.stderr)")
        #expect(try await run("user", "add", "--email", "ada@example.org", "--role", "librarian", stdin: "Member-Pass1\n").status == 0)
        #expect(try await run("user", "demote", "lib@example.org").status == 0)
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(try await run("--json", "user", "list").stdout.utf8)) as? [String: Any])
                .flatMap { ($0["items"] as? [[String: Any]])?.first { $0["email"] as? String == "ada@example.org" }?["id"] as? String })
        #expect(try await run("user", "demote", id).status == 1)
    }

    @Test func aDatabaseInAMissingFolderIsRefusedInOneLine() async throws {
        let missing = db.folder.appendingPathComponent("no/such/dir")
        let given = try await run("--db", missing.appendingPathComponent("x.sqlite").path, "book", "list")
        #expect(given.status == 2 && given.stdout.isEmpty)
        #expect(
            given.stderr
                == "Error: --db names a file in the folder \(missing.path), which does not exist: "
                + "create the folder first, or give another path\n")
        let variable = try await shelfmark(["book", "list"], database: missing.appendingPathComponent("x.sqlite").path)
        #expect(variable.status == 2 && variable.stderr.hasPrefix("Error: SHELFMARK_DB names a file in the folder \(missing.path)"))
        let serve = try await shelfmark(["serve", "--port", "0"], database: missing.appendingPathComponent("x.sqlite").path)
        #expect(serve.status == 2 && serve.stderr.contains("SHELFMARK_DB names a file in the folder \(missing.path)"), "\(serve.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func aNewLibraryIsAnnouncedOnce() async throws {
        let path = URL(fileURLWithPath: db.path).standardizedFileURL.path
        let first = try await run("book", "list")
        #expect(first.status == 0 && first.stdout.contains("No books."))
        #expect(first.stderr == "Created a new library at \(path).\n")
        let second = try await run("book", "list")
        #expect(second.status == 0 && second.stderr.isEmpty)
        // A failure on a library the same run created says both in its one line.
        let other = db.folder.appendingPathComponent("nested/other.sqlite").path
        let failed = try await run("--db", other, "book", "show", "nope")
        #expect(failed.status == 3)
        #expect(
            failed.stderr
                == "Error: there is no book with id 'nope' (Created a new library at \(URL(fileURLWithPath: other).standardizedFileURL.path).)\n"
        )
    }
}

/// `signup --username`, `account edit --username` and `login --username`.
@Suite("CLI: usernames")
struct CLIUsernameTests {
    let db = TemporaryDatabase()

    func run(_ arguments: String..., stdin: String? = nil) async throws -> CLIResult {
        try await shelfmark(arguments, database: db.path, stdin: stdin)
    }

    @Test func aMemberChoosesAUsernameAndLogsInWithIt() async throws {
        let signup = try await run(
            "signup", "--email", "ada@example.org", "--country", "FR", "--username", "Ada.L", stdin: "Member-Pass1\n")
        #expect(signup.status == 0, "\(signup.stderr)")
        let login = try await run("login", "--username", "ada.l", stdin: "Member-Pass1\n")
        #expect(login.status == 0 && login.stdout.contains("ada@example.org"), "\(login.stderr)")
        let json = try await run("account", "edit", "--username", "lovelace", "--json")
        #expect(json.status == 0 && json.stdout.contains(#""username":"lovelace""#) || json.stdout.contains(#""username" : "lovelace""#))
        #expect(
            try await run("login", "--username", "ada.l", stdin: "Member-Pass1\n").stderr
                == "Error: wrong email address, username or password\n")
        #expect(try await run("login", "--username", "lovelace", stdin: "Member-Pass1\n").status == 0)
    }

    @Test func loginTakesAnEmailOrAUsernameNotBoth() async throws {
        let both = try await run("login", "--email", "ada@example.org", "--username", "ada", stdin: "Member-Pass1\n")
        #expect(both.status != 0 && both.stderr.contains("--email") && both.stderr.contains("--username"), "\(both.stderr)")
        let neither = try await run("login", stdin: "Member-Pass1\n")
        #expect(neither.status != 0 && neither.stderr.contains("--email"))
        let bad = try await run("signup", "--email", "ada@example.org", "--country", "FR", "--username", "a@b", stdin: "Member-Pass1\n")
        #expect(bad.status != 0 && bad.stderr.contains("username:"), "\(bad.stderr)")
    }
}
