import Application
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The key in the Prolific base URL: a capability acting as its librarian, asked at every request.
@Suite("Prolific API: the key, the mount and hostile requests")
struct ProlificKeyTests {
    static let unknown = "0123456789abcdef01234567"

    @Test func anUnknownRevokedOrDemotedKeyIsA404WithAnError() async throws {
        try await withProlific { app in
            let unknown = try await app.send(.get, "books", key: Self.unknown)
            #expect(unknown.status == .notFound && unknown.error?.contains("no such key") == true, "\(unknown.text)")
            #expect(try await app.send(.post, "books", body: "{}", contentType: "application/json", key: Self.unknown).status == .notFound)

            // A second librarian's key stops working when they are demoted, and works again once promoted.
            let form = SignupForm(email: "grace@example.org", password: "Librarian-Pass1", displayName: "Grace", country: "FR")
            let grace = try await app.library.accounts.signUp.execute(form, role: .librarian, openSession: false, by: .cliOperator)
            let graces = try await app.newKey(for: "grace@example.org")
            #expect(try await app.send(.get, "books", key: graces).status == .ok, "a key made while serving works at once")
            _ = try await app.library.accounts.changeRole.execute(grace.account.id, to: .member, by: .cliOperator)
            #expect(try await app.send(.get, "books", key: graces).status == .notFound)
            _ = try await app.library.accounts.changeRole.execute(grace.account.id, to: .librarian, by: .cliOperator)
            #expect(try await app.send(.get, "books", key: graces).status == .ok)

            try await app.library.appKeys.revoke.execute(key: app.key, by: .cliOperator)
            let revoked = try await app.send(.get, "books")
            #expect(revoked.status == .notFound && revoked.error != nil, "\(revoked.text)")
        }
    }

    @Test func everyChangeIsRecordedAsTheKeysLibrarian() async throws {
        try await withProlific { app in
            _ = try await app.json(.post, "books", #"{"title":"Emma","author":"Jane Austen"}"#)
            var lines: [String] = []
            _ = try await app.library.exportLog.execute(by: .cliOperator) { lines.append($0) }
            let added = try #require(lines.first { $0.contains("book.added.v1") })
            #expect(added.contains("user:\(app.librarian)"), "\(added)")
        }
    }

    @Test func withoutALiveKeyThePathsAreNotTheAPIsUnlessForced() async throws {
        try await withProlific(withKey: false) { app in
            let off = try await app.send(.get, "books", key: Self.unknown)
            #expect(off.status == .notFound && off.error == nil, "the web pages' or the API's 404: \(off.text)")
            let key = try await app.newKey()
            #expect(try await app.send(.get, "books", key: key).status == .ok, "mounted once a key exists, without a restart")
            try await app.library.appKeys.revoke.execute(key: key, by: .cliOperator)
            #expect(try await app.send(.get, "books", key: key).error == nil, "unmounted again with no live key")
        }
        try await withProlific(withKey: false, forced: true) { app in
            let forced = try await app.send(.get, "books", key: Self.unknown)
            #expect(forced.status == .notFound && forced.error != nil, "serve --prolific: the API answers: \(forced.text)")
        }
    }

    @Test func pathsMethodsAndNumbersOutsideTheRoutesAreRefusedInJSON() async throws {
        try await withProlific { app in
            for path in [
                "books/0", "books/007", "books/abc", "books/-1", "books/99999999999999999999999999", "books/1", "books//", "nope", "",
            ] {
                let response = try await app.send(.get, path)
                #expect(response.status == .notFound && response.error != nil, "\(path): \(response.status) \(response.text)")
            }
            let patch = try await app.send(.patch, "books")
            #expect(patch.status == .methodNotAllowed && patch.headers[.allow] == "GET, HEAD, POST", "\(patch.text)")
            #expect(
                patch.error?.hasPrefix("books does not answer PATCH") == true && patch.error?.contains(app.key) == false, "\(patch.text)")
            #expect(patch.error?.contains("{key}") == false, "\(patch.text)")
            #expect(try await app.send(.get, "clean").status == .methodNotAllowed)
            #expect(try await app.send(.post, "books/1", body: "{}", contentType: "application/json").status == .methodNotAllowed)
        }
    }

    @Test func malformedAndHostileBodiesAre4xx() async throws {
        try await withProlific { app in
            struct Case {
                let name: String
                let body: [UInt8]
                let type: String?
                let status: HTTPResponse.Status
                init(_ name: String, _ body: [UInt8], _ type: String?, _ status: HTTPResponse.Status) {
                    self.name = name
                    self.body = body
                    self.type = type
                    self.status = status
                }
            }
            let json = "application/json"
            let form = "application/x-www-form-urlencoded"
            let nested: [UInt8] = Array(repeating: UInt8(ascii: "["), count: 5000) + Array(repeating: UInt8(ascii: "]"), count: 5000)
            let cases: [Case] = [
                Case("not JSON", Array(#"{"title":"#.utf8), json, .badRequest),
                Case("an array", Array(#"[{"title":"T"}]"#.utf8), json, .badRequest),
                Case("a string", Array(#""T""#.utf8), json, .badRequest),
                Case("deeply nested", nested, json, .badRequest),
                Case("not UTF-8", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D], json, .badRequest),
                Case("a bad form", Array("title=%ZZ&author=A".utf8), form, .badRequest),
                Case("a field twice", Array("title=A&title=B&author=A".utf8), form, .badRequest),
                // Found by an outside test: JSON naming a key twice was taken, the last value winning.
                Case("a key twice", Array(#"{"title":"A","title":"B","author":"x"}"#.utf8), json, .badRequest),
                Case("a trailing comma", Array(#"{"title":"A","author":"x",}"#.utf8), json, .badRequest),
                Case("a trailing comma in a list", Array("[1,2,]".utf8), json, .badRequest),
                Case("a key twice, escaped", Array(#"{"title":"A","t\u0069tle":"B","author":"x"}"#.utf8), json, .badRequest),
                Case("too large", Array(repeating: UInt8(ascii: "a"), count: 70_000), json, .contentTooLarge),
                Case("another type", Array("<book/>".utf8), "application/xml", .unsupportedMediaType),
                Case("a huge number", Array(#"{"title":1e999999,"author":"A"}"#.utf8), json, .badRequest),
            ]
            for c in cases {
                let response = try await app.sendBytes(.post, "books", body: c.body, contentType: c.type)
                #expect(response.status == c.status && response.error != nil, "\(c.name): \(response.status) \(response.text)")
                // Said as not JSON, which it is not, rather than as JSON that is no object.
                if c.name == "a trailing comma in a list" { #expect(!response.text.contains("object"), "\(response.text)") }
            }
            let untyped = try await app.send(.post, "books", body: #"{"title":"Untyped","author":"A"}"#)
            #expect(untyped.status == .created, "a body without a content type is read by its look: \(untyped.text)")
            let unicode = try await app.json(.post, "books", #"{"title":"Zoe\u0308 — 東京 📚","author":"Ōe, Kenzaburō"}"#)
            #expect(unicode.status == .created, "\(unicode.text)")
            #expect(try unicode.object["author"] as? String == "Ōe, Kenzaburō")
            #expect(try await app.send(.get, "books").array.count == 2)
        }
    }
}
