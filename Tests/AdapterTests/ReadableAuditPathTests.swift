import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// History and time travel over HTTP and the CLI: actors by name, changes as fields, payloads as
/// objects, and no password hash or digest in any answer; the export's secrets kept only for the operator.
@Suite("Readable audit and secrets over HTTP and the CLI")
struct ReadableAuditPathTests {
    static let hashPrefixes = ["$2b$", "$2a$", "$2y$"]

    static func expectNoHash(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!hashPrefixes.contains { text.contains($0) }, "\(what): \(text)", sourceLocation: sourceLocation)
    }

    @Test func httpAnswersNameActorsShowChangesAndNoSecret() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["F"],"publisher":"Chilton"}"#)
                    .object["id"] as? String)
            var answers: [(String, String)] = []
            func keep(_ what: String, _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String?? = .some(nil))
                async throws -> TestResponse
            {
                let response = try await api.send(method, uri, json: json, token: token)
                answers.append((what, response.text))
                return response
            }
            _ = try await keep("edit", .patch, "/api/v1/books/\(book)", json: #"{"publisher":"Harper"}"#)
            _ = try await keep("me", .get, "/api/v1/me", token: ada)
            _ = try await keep("users", .get, "/api/v1/users")
            _ = try await keep(
                "login", .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            let member = try await keep("member history", .get, "/api/v1/audit/history?member=ada@example.org")
            let items = try #require(member.object["items"] as? [[String: Any]])
            let registered = try #require(items.first?["payload"] as? [String: Any], "the payload is an object, not a string")
            #expect(registered["passwordHash"] as? String == "[redacted]")
            let opened = try #require(items.first { $0["type"] as? String == "user.session-opened.v1" }?["payload"] as? [String: Any])
            #expect(opened["tokenDigest"] as? String == "[redacted]")
            let history = try await keep("book history", .get, "/api/v1/audit/history?book=\(book)")
            let events = try #require(history.object["items"] as? [[String: Any]])
            #expect(events.last?["actorName"] as? String == "Lib <librarian@example.org>")
            let change = try #require((events.last?["changes"] as? [[String: Any]])?.first)
            #expect(change["text"] as? String == "publisher: Chilton → Harper" && change["from"] as? String == "Chilton")
            let now = Date().addingTimeInterval(60).formatted(.iso8601).replacingOccurrences(of: ":", with: "%3A")
            _ = try await keep("as-of", .get, "/api/v1/audit/as-of?at=\(now)&view=member&member=ada@example.org")
            for (what, text) in answers { Self.expectNoHash(text, what) }
        }
    }

    @Test func cliHistoryReadsAsFieldsAndTheExportKeepsSecretsForTheOperatorOnly() async throws {
        let db = TemporaryDatabase()
        let added = try await shelfmark(
            ["user", "add", "--email", "ada@example.org", "--name", "Ada Lovelace", "--country", "GB"], database: db.path,
            stdin: "Analytical-1\n")
        #expect(added.status == 0, "\(added.stderr)")
        // Ada logs in once (a session-token digest in the log), then the CLI acts as the operator again.
        #expect(try await shelfmark(["login", "--email", "ada@example.org"], database: db.path, stdin: "Analytical-1\n").status == 0)
        _ = try await shelfmark(["logout"], database: db.path)
        let book = try await shelfmark(
            ["--json", "book", "add", "--title", "Dune", "--author", "F", "--publisher", "Chilton"], database: db.path)
        let id = try #require((try JSONSerialization.jsonObject(with: Data(book.stdout.utf8)) as? [String: Any])?["id"] as? String)
        #expect(try await shelfmark(["book", "edit", id, "--publisher", "Harper"], database: db.path).status == 0)

        let history = try await shelfmark(["audit", "history", "--book", id], database: db.path)
        #expect(history.stdout.contains("publisher: Chilton → Harper") && history.stdout.contains("title: Dune"), "\(history.stdout)")
        #expect(history.stdout.contains("operator") && history.stdout.contains("CHANGES"))
        let member = try await shelfmark(["audit", "history", "--member", "ada@example.org"], database: db.path)
        #expect(
            member.stdout.contains("passwordHash: [redacted]") && member.stdout.contains("displayName: Ada Lovelace"), "\(member.stdout)")
        Self.expectNoHash(member.stdout, "history")
        let json = try await shelfmark(["--json", "audit", "history", "--member", "ada@example.org"], database: db.path)
        let items = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        #expect((items.first?["payload"] as? [String: Any])?["passwordHash"] as? String == "[redacted]")
        Self.expectNoHash(json.stdout, "--json history")

        // The export: redacted, and verifying it says what it could not check.
        let file = db.folder.appendingPathComponent("log.jsonl").path
        #expect(try await shelfmark(["audit", "export", "-o", file], database: db.path).status == 0)
        Self.expectNoHash(try String(contentsOfFile: file, encoding: .utf8), "export")
        let verified = try await shelfmark(["audit", "verify", "--file", file], database: db.path)
        #expect(
            verified.status == 0 && verified.stdout.contains("redacted secrets: 1 event has its secrets redacted"), "\(verified.stdout)")
        // With the secrets, for a backup: every hash is checked.
        let backup = db.folder.appendingPathComponent("backup.jsonl").path
        #expect(try await shelfmark(["audit", "export", "--include-secrets", "-o", backup], database: db.path).status == 0)
        let kept = try String(contentsOfFile: backup, encoding: .utf8)
        #expect(kept.contains(#"\"tokenDigest\":\""#) && !kept.contains("[redacted]"))
        let full = try await shelfmark(["audit", "verify", "--file", backup], database: db.path)
        #expect(full.status == 0 && !full.stdout.contains("redacted"), "\(full.stdout)")

        // A librarian's session may export, but not the secrets.
        _ = try await shelfmark(
            ["user", "add", "--email", "grace@example.org", "--role", "librarian", "--country", "US"], database: db.path,
            stdin: "Compiler-1A\n")
        #expect(try await shelfmark(["login", "--email", "grace@example.org"], database: db.path, stdin: "Compiler-1A\n").status == 0)
        let refused = try await shelfmark(["audit", "export", "--include-secrets"], database: db.path)
        #expect(
            refused.status == 1 && refused.stdout.isEmpty && refused.stderr.contains("only the database's operator"), "\(refused.stderr)")
        let asLibrarian = try await shelfmark(["audit", "history", "--book", id], database: db.path)
        #expect(asLibrarian.status == 0)
    }

    @Test func asOfNamesTheBorrowerByNameAndEmail() async throws {
        let db = TemporaryDatabase()
        _ = try await shelfmark(
            ["user", "add", "--email", "ada@example.org", "--name", "Ada Lovelace", "--country", "GB"], database: db.path,
            stdin: "Analytical-1\n")
        let book = try await shelfmark(["--json", "book", "add", "--title", "Dune", "--author", "F"], database: db.path)
        let id = try #require((try JSONSerialization.jsonObject(with: Data(book.stdout.utf8)) as? [String: Any])?["id"] as? String)
        #expect(try await shelfmark(["login", "--email", "ada@example.org"], database: db.path, stdin: "Analytical-1\n").status == 0)
        #expect(try await shelfmark(["loan", "borrow", id], database: db.path).status == 0)
        _ = try await shelfmark(["logout"], database: db.path)
        let later = Date().addingTimeInterval(3600).formatted(.iso8601)
        let loans = try await shelfmark(["audit", "as-of", later, "loans"], database: db.path)
        #expect(loans.stdout.contains("Ada Lovelace <ada@example.org>"), "\(loans.stdout)\(loans.stderr)")
    }
}
