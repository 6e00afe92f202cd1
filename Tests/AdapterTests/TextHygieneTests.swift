import Application
import Domain
import Foundation
import Testing
import Wording

/// Bidirectional controls and the other invisible format characters are refused in names,
/// titles and authors through the API and the command line, with a field error naming the field
/// (issue 14: a display name holding U+202E was accepted and scrambled `user list`).
@Suite("Text hygiene through HTTP and the CLI")
struct TextHygieneTests {
    /// The overrides and embeddings' successors (LRO is U+202D, RLO U+202E), the isolates
    /// (U+2066 to U+2069), the marks (LRM, RLM) and the Arabic letter mark.
    static let bidi: [Unicode.Scalar] = [
        "\u{202E}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}",
    ]

    static func hex(_ scalar: Unicode.Scalar) -> String { "U+" + String(scalar.value, radix: 16, uppercase: true) }

    /// "Ada" with `scalar` inside, as JSON escapes it.
    static func jsonText(_ scalar: Unicode.Scalar) -> String { #"Ad\u"# + String(format: "%04X", scalar.value) + "a" }

    static let refusal = Wording.english.text(FieldProblem.invisibleCharacters)

    @Test func signupRefusesThemInTheDisplayName() async throws {
        try await withAPI { api in
            for (n, scalar) in Self.bidi.enumerated() {
                let body =
                    #"{"email":"m\#(n)@example.org","password":"Member-Pass1","country":"FR","displayName":"\#(Self.jsonText(scalar))"}"#
                let response = try await api.send(.post, "/api/v1/users", json: body, token: .none)
                #expect(response.status == .badRequest, "\(Self.hex(scalar)): \(response.text)")
                let errors = (try response.object["errors"] as? [[String: Any]])?.map { "\($0["field"] ?? ""): \($0["message"] ?? "")" }
                #expect(errors == ["displayName: \(Self.refusal)"], "\(Self.hex(scalar))")
            }
        }
    }

    /// Found by an outside test: one letter and 150,000 combining accents counted as one
    /// character, so anyone could sign up with a 300 KB name (and add such a title).
    @Test func aLetterUnderAPileOfCombiningAccentsIsTooLongEverywhereALengthIsChecked() async throws {
        let piled = "A" + String(repeating: "\u{0301}", count: 150_000)
        try await withAPI { api in
            let signup = try await api.send(
                .post, "/api/v1/users",
                json: #"{"email":"pile@example.org","password":"Member-Pass1","country":"FR","displayName":"\#(piled)"}"#,
                token: .none)
            #expect(signup.status == .badRequest || signup.status == .contentTooLarge, "\(signup.status)")
            let short = "A" + String(repeating: "\u{0301}", count: 1_000)
            let named = try await api.send(
                .post, "/api/v1/users",
                json: #"{"email":"pile@example.org","password":"Member-Pass1","country":"FR","displayName":"\#(short)"}"#,
                token: .none)
            #expect(named.status == .badRequest)
            #expect((try named.object["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["displayName"])
            // A title may hold 500 characters, an author's name 200.
            let longer = "A" + String(repeating: "\u{0301}", count: 3_000)
            let book = try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(longer)","authors":["\#(longer)"]}"#)
            #expect(book.status == .badRequest)
            #expect((try book.object["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["title", "authors[0]"])
            #expect(try await api.send(.get, "/api/v1/books", token: .none).object["total"] as? Int == 0)
            // Found by the same test: a title and an author of Hangul fillers only passed "is required".
            let blank = try await api.send(.post, "/api/v1/books", json: #"{"title":"\u3164","authors":["\u115f"]}"#)
            #expect(blank.status == .badRequest)
            #expect((try blank.object["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["title", "authors"])
        }
    }

    @Test func addingABookRefusesThemInTheTitleAndTheAuthors() async throws {
        try await withAPI { api in
            for scalar in Self.bidi {
                let text = Self.jsonText(scalar)
                let response = try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(text)","authors":["B","\#(text)"]}"#)
                #expect(response.status == .badRequest, "\(Self.hex(scalar)): \(response.text)")
                let fields = (try response.object["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
                #expect(fields == ["title", "authors[1]"], "\(Self.hex(scalar))")
            }
            #expect(try await api.send(.get, "/api/v1/books", token: .none).object["total"] as? Int == 0)
        }
    }

    @Test func theCLIRefusesThemInNamesTitlesAndAuthors() async throws {
        let db = TemporaryDatabase()
        for (n, scalar) in Self.bidi.enumerated() {
            let text = "Ad\(Character(scalar))a"
            let user = try await shelfmark(
                ["user", "add", "--email", "u\(n)@example.org", "--name", text], database: db.path, stdin: "Member-Pass1\n")
            #expect(user.status != 0 && user.stderr.contains("--name: \(Self.refusal)"), "\(Self.hex(scalar)): \(user.stderr)")
            let book = try await shelfmark(["book", "add", "--title", text, "--author", text], database: db.path)
            #expect(book.status != 0, "\(Self.hex(scalar))")
            #expect(
                book.stderr.contains("--title: \(Self.refusal)") && book.stderr.contains("--author number 1: \(Self.refusal)"),
                "\(book.stderr)")
        }
        let users = try await shelfmark(["user", "list"], database: db.path)
        #expect(!users.stdout.contains("example.org"), "no account was created: \(users.stdout)")
    }

    /// Found by an outside test: Swift reads bytes that are not UTF-8 as U+FFFD, so the CLI stored
    /// `a\u{FFFD}b` as a title where the API refuses the same bytes.
    @Test func theCLIRefusesAnArgumentThatIsNotUTF8() async throws {
        let db = TemporaryDatabase()
        let executable = try shelfmarkExecutable().path
        var environment = ProcessInfo.processInfo.environment
        environment["SHELFMARK_DB"] = db.path
        let script = #"exec "$0" book add --title "$(printf 'a\377b')" --author y"#
        let run = try await offPool { [environment] in
            try runToEnd("/bin/sh", ["-c", script, executable], environment: environment, input: nil)
        }
        #expect(run.status == 64)
        #expect(String(decoding: run.stderr, as: UTF8.self) == "Error: argument 4: must be UTF-8 text; nothing was done\n")
        let list = try await shelfmark(["book", "list"], database: db.path)
        #expect(!list.stdout.contains("\u{FFFD}"), "\(list.stdout)")
    }
}
