import Application
import Composition
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APIContract
@testable import HTTPAPI

/// What a stranger can send, found by attacking the server from outside (issue 12): each test
/// failed on the code before its fix.
@Suite("HTTP hardening: bodies, keys and borrowers")
struct HardeningHTTPTests {
    /// Every operation of the contract that takes a request body, and whether it names a security scheme.
    static func operationsWithBodies() throws -> [(method: String, path: String, secured: Bool)] {
        let lines = String(decoding: try HTTPServer.contract(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var found: [(String, String, Bool)] = []
        var path = ""
        var operation: (method: String, body: Bool, secured: Bool)?
        func close() {
            if let operation, operation.body { found.append((operation.method, path, operation.secured)) }
            operation = nil
        }
        for line in lines {
            if line.hasPrefix("  /") {
                close()
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                close()
                operation = (line.trimmingCharacters(in: .whitespaces).dropLast().uppercased(), false, false)
            } else if line.hasPrefix("      requestBody:") {
                operation?.body = true
            } else if line.hasPrefix("      security:") {
                operation?.secured = true
            } else if !line.hasPrefix(" "), !line.isEmpty {
                close()
            }
        }
        close()
        return found
    }

    @Test func everyRouteOfTheContractRunsAnOperationOfTheTable() throws {
        let lines = String(decoding: try HTTPServer.contract(), as: UTF8.self).split(separator: "\n")
        var routes: Set<String> = []
        var path = ""
        for line in lines {
            if line.hasPrefix("  /") { path = String(line.dropFirst(2).dropLast()) }
            for method in ["get", "post", "put", "patch", "delete"] where line == "    \(method):" {
                routes.insert("\(method.uppercased()) /api/v1\(path)")
            }
        }
        #expect(routes.count >= 30)
        #expect(
            routes == Set(OperationRoutes.table.keys),
            "in the contract only: \(routes.subtracting(OperationRoutes.table.keys)); in the table only: \(Set(OperationRoutes.table.keys).subtracting(routes))"
        )
    }

    @Test func callersAreCheckedAgainstTheTableBeforeAnythingTheySentIsRead() async throws {
        let operations = try Self.operationsWithBodies()
        #expect(operations.count >= 8)
        let open = Set(operations.filter { !$0.secured }.map { "\($0.method) /api/v1\($0.path)" })
        #expect(
            open == ["POST /api/v1/sessions", "POST /api/v1/users", "POST /api/v1/password-resets"],
            "operations taking an anonymous body changed: \(open)")
        try await withAPI { api in
            let member = try await api.signUpMember("ada@example.org")
            for operation in operations where operation.secured {
                let path = "/api/v1" + operation.path.replacingOccurrences(of: "{id}", with: "not-an-id")
                let garbage = ByteBuffer(string: "{\"title\":\"" + String(repeating: "x", count: 10_000) + "\", \"copies\": \"many\"")
                let anonymous = try await api.client.execute(
                    uri: path, method: .init(rawValue: operation.method)!, headers: [.contentType: "application/json"], body: garbage)
                #expect(anonymous.status == .unauthorized, "\(operation.method) \(path): \(anonymous.status)")
                let asMember = try await api.client.execute(
                    uri: path, method: .init(rawValue: operation.method)!,
                    headers: [.contentType: "application/json", .authorization: "Bearer \(member)"], body: garbage)
                // Members may borrow, place holds and edit their own account and password; everything else
                // that takes a body here is for librarians.
                let own = ["/loans", "/holds", "/me", "/me/password"]
                let expected: HTTPResponse.Status = own.contains(operation.path) ? .badRequest : .forbidden
                #expect(asMember.status == expected, "member \(operation.method) \(path): \(asMember.status)")
            }
        }
    }

    @Test func aStalledAnonymousUploadIsAnsweredAtOnceAndItsConnectionClosed() async throws {
        // The idle timeout is out of the way: only the body deadline can close this connection.
        try await withAPI(
            mode: .live,
            configure: {
                $0.bodyTimeout = 2; $0.idleTimeout = 600
            }
        ) { api in
            let port = try #require(api.client.port)
            let upload = try RawConnection(port: port)
            try upload.send(
                "POST /api/v1/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n"
                    + String(repeating: "x", count: 60_000))
            // The answer comes before the body (which never will); then the server stops sending.
            let answer = await upload.read(through: "urn:shelfmark:problem:unauthenticated", seconds: 10)
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(200))")
            #expect(answer.lowercased().contains("connection: close"))
            #expect(answer.contains("urn:shelfmark:problem:unauthenticated"))
            #expect(await upload.waitForClose(seconds: 60), "the connection outlived the body deadline")
        }
    }

    @Test func bodiesBeyondTheInFlightBudgetAre503WithRetryAfter() async throws {
        try await withAPI(mode: .live, configure: { $0.bodyMemory = 1_500 }) { api in
            let port = try #require(api.client.port)
            var held: RawConnection? = try RawConnection(port: port)
            try held?.send(
                "POST /api/v1/books HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(api.librarianToken)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"title\":")
            try await Task.sleep(for: .milliseconds(300))  // the held body has its reservation
            let body = #"{"title":"Dune","authors":["Frank Herbert"],"copies":1,"description":"\#(String(repeating: "d", count: 900))"}"#
            // Refused with Connection: close, so on a connection of its own (the test client keeps one).
            let other = try RawConnection(port: port)
            try other.send(
                "POST /api/v1/books HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(api.librarianToken)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let refused = await other.read(through: "urn:shelfmark:problem:busy", seconds: 10)
            #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused.prefix(300))")
            #expect(refused.lowercased().contains("retry-after: 2"))
            #expect(refused.contains("urn:shelfmark:problem:busy"))
            held = nil  // closing it gives its reservation back, once the server has seen the close
            // A 503 closes its connection: each try on a connection of its own.
            var answer = ""
            for _ in 0..<50 {
                let again = try RawConnection(port: port)
                try again.send(
                    "POST /api/v1/books HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(api.librarianToken)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                answer = await again.read(through: "\r\n\r\n", seconds: 10)
                if !answer.hasPrefix("HTTP/1.1 503") { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer.prefix(300))")
        }
    }

    @Test(
        "duplicate keys are refused, however they are spelled",
        arguments: [
            #"{"email":"ada@example.org","email":"bob@example.org","password":"x"}"#,
            #"{"email":"ada@example.org","e\u006dail":"bob@example.org","password":"x"}"#,
            #"{"password":"x","email":"a@example.org","nested":[{"a":1},{"a":2,"a":3}]}"#,
        ])
    func duplicateKeys(body: String) async throws {
        try await withAPI { api in
            let response = try await api.send(.post, "/api/v1/sessions", json: body, token: .none)
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.text.contains("twice"))
            // A body sent without a Content-Type is read as JSON all the same: it is checked the same way.
            let untyped = try await api.client.execute(uri: "/api/v1/sessions", method: .post, headers: [:], body: ByteBuffer(string: body))
            #expect(untyped.status == .badRequest && String(buffer: untyped.body).contains("twice"), "\(String(buffer: untyped.body))")
        }
    }

    /// Found by an outside walk: bcrypt stops at a NUL, so `Member-Pass1\u{0}garbage` logged in as
    /// the account whose password is `Member-Pass1`.
    @Test func aPasswordWithANULDoesNotLogIn() async throws {
        try await withAPI { api in
            _ = try await api.signUpMember("ada@example.org")
            let nul = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1\u0000garbage"}"#, token: .none)
            #expect(nul.status == .unauthorized, "\(nul.text)")
            let right = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1"}"#, token: .none)
            #expect(right.status == .created)
        }
    }

    /// Found by an outside walk: a trailing comma, which JSON has not, logged in and changed a profile.
    @Test func aTrailingCommaIsNotJSON() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let login = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"ada@example.org","password":"Member-Pass1",}"#, token: .none)
            #expect(login.status == .badRequest && login.text.contains("not valid JSON"), "\(login.text)")
            let profile = try await api.send(.patch, "/api/v1/me", json: #"{"displayName":"Two",}"#, token: ada)
            #expect(profile.status == .badRequest, "\(profile.text)")
            #expect(try await api.send(.get, "/api/v1/me", token: ada).object["displayName"] as? String != "Two")
        }
    }

    @Test func aProfileChangeNamingAFieldTwiceWithoutAContentTypeChangesNothing() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            let twice = ByteBuffer(string: #"{"displayName":"A","displayName":"B"}"#)
            let answer = try await api.client.execute(
                uri: "/api/v1/me", method: .patch, headers: [.authorization: "Bearer \(ada)"], body: twice)
            #expect(answer.status == .badRequest, "\(String(buffer: answer.body))")
            #expect(try await api.send(.get, "/api/v1/me", token: ada).object["displayName"] as? String != "A")
        }
    }

    @Test func aBodysMediaTypeIsSaidOnceAndInUTF8() async throws {
        try await withAPI { api in
            let ada = try await api.signUpMember("ada@example.org")
            func patch(_ contentTypes: [String]) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(ada)"]
                for type in contentTypes { headers.append(HTTPField(name: .contentType, value: type)) }
                return try await api.client.execute(
                    uri: "/api/v1/me", method: .patch, headers: headers, body: ByteBuffer(string: #"{"displayName":"Ada L."}"#))
            }
            for types in [
                ["application/json", "text/plain"], ["text/plain", "application/json"], ["application/json", "application/json"],
            ] {
                let refused = try await patch(types)
                #expect(refused.status == .badRequest && refused.text.contains("2 Content-Type headers"), "\(types): \(refused.text)")
            }
            for type in ["application/json; charset=utf-16", #"application/json;charset="latin1""#] {
                let refused = try await patch([type])
                #expect(refused.status == .unsupportedMediaType && refused.text.contains("UTF-8"), "\(type): \(refused.text)")
            }
            #expect(try await api.send(.get, "/api/v1/me", token: ada).object["displayName"] as? String != "Ada L.", "nothing changed")
            for type in ["application/json; charset=utf-8", #"application/json; Charset="UTF-8""#, "application/json"] {
                #expect(try await patch([type]).status == .ok, "\(type)")
            }
        }
    }

    @Test func borrowersAreShownToLibrariansAndToThemselvesOnly() async throws {
        try await withAPI { api in
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"Health","authors":["A"],"copies":2}"#).object["id"] as? String)
            let ada = try await api.signUpMember("ada@example.org")
            let bob = try await api.signUpMember("bob@example.org")
            #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(book)"]}"#, token: ada).status == .created)
            func lastCheckout(_ token: String??, search: Bool) async throws -> [String: Any]? {
                let object = try await api.send(.get, search ? "/api/v1/books?q=health" : "/api/v1/books/\(book)", token: token).object
                let entry = search ? (object["items"] as? [[String: Any]])?.first : object
                return entry?["lastCheckout"] as? [String: Any]
            }
            for search in [false, true] {
                #expect(try await lastCheckout(.none, search: search)?["name"] == nil)
                #expect(try await lastCheckout(.none, search: search)?["at"] != nil)
                #expect(try await lastCheckout(bob, search: search)?["name"] == nil)
                #expect(try await lastCheckout(ada, search: search)?["name"] as? String == "ada")
                #expect(try await lastCheckout(.some(nil), search: search)?["name"] as? String == "ada")
            }
        }
    }

    @Test func anotherMembersLoanIsNotFoundLikeAnUnknownOne() async throws {
        try await withAPI { api in
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["A"]}"#).object["id"] as? String)
            let ada = try await api.signUpMember("ada@example.org")
            let bob = try await api.signUpMember("bob@example.org")
            let loan = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(book)"]}"#, token: ada)
            let id = try #require(((loan.object["loans"] as? [[String: Any]])?.first?["id"]) as? String)
            for action in ["return", "renew"] {
                let theirs = try await api.send(.post, "/api/v1/loans/\(id)/\(action)", token: bob)
                let unknown = try await api.send(.post, "/api/v1/loans/\(UUID())/\(action)", token: bob)
                #expect(theirs.status == .notFound && unknown.status == .notFound)
                #expect(theirs.problemType == unknown.problemType)
            }
        }
    }
}
