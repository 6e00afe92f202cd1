import Application
import Composition
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

@testable import HTTPAPI

/// Safe retries (`Idempotency-Key`) through the real HTTP application on a real SQLite file: a
/// retry gets the first answer and records nothing, across a restart too; the key of another
/// request, a retry too early and a malformed key are refused; a refusal records no key.
@Suite("HTTP API: safe retries")
struct HTTPSafeRetryTests {
    /// A library file of the test's own, kept across restarts of the application.
    final class Library: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-retries-\(UUID())")
        var path: String { folder.appendingPathComponent("library.sqlite").path }
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }

        /// How many events the log holds, read from the file.
        func events() throws -> Int {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0 }
        }

        /// Runs `sql` on the file, as something outside the server would.
        func execute(_ sql: String) throws {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            try queue.write { db in try db.execute(sql: sql) }
        }
    }

    static let book = #"{"title":"Dune","authors":["Frank Herbert"],"copies":5}"#

    /// Sends `json` with `key` as `token` (the librarian's unless given).
    static func send(
        _ api: APIClient, _ uri: String, _ json: String, key: String?, token: String? = nil, language: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token ?? api.librarianToken)"]
        if token == "" { headers[.authorization] = nil }
        if let key { headers[.init("Idempotency-Key")!] = key }
        if let language { headers[.acceptLanguage] = language }
        return try await api.client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    static func bookID(_ response: TestResponse) throws -> String { try #require(try response.object["id"] as? String) }

    /// The contract offers the header on exactly the operations `SafeRetries` runs it for.
    @Test func theContractDeclaresTheKeyWhereItIsHonoured() throws {
        let contract = try ContractShapes(contract: String(decoding: try HTTPServer.contract(), as: UTF8.self))
        let declared = contract.operations.filter { operation in
            operation.parameters.contains { $0.name == "Idempotency-Key" && $0.location == "header" && !$0.required }
        }
        let operations = declared.compactMap { OperationRoutes.table["\($0.method) /api/v1\($0.path)"] }
        #expect(operations.count == declared.count)
        #expect(Set(operations) == SafeRetries.operations)
        #expect(declared.allSatisfy { $0.statuses.contains("422") && $0.statuses.contains("409") && $0.statuses.contains("400") })
    }

    @Test func aRetryGetsTheFirstAnswerAndRecordsNothing() async throws {
        let library = try Library()
        try await withAPI(databasePath: library.path) { api in
            let first = try await Self.send(api, "/api/v1/books", Self.book, key: "add-dune-1")
            #expect(first.status == .created, "\(first.text)")
            let events = try library.events()
            let again = try await Self.send(api, "/api/v1/books", Self.book, key: "add-dune-1")
            #expect(again.status == .created)
            #expect(again.text == first.text)
            #expect(again.headers[.location] == first.headers[.location])
            #expect(again.headers[.contentType] == first.headers[.contentType])
            #expect(try library.events() == events)

            let member = try await api.signUpMember("ada@example.org")
            let borrow = #"{"bookIds":["\#(try Self.bookID(first))"]}"#
            let loan = try await Self.send(api, "/api/v1/loans", borrow, key: "borrow-1", token: member)
            #expect(loan.status == .created, "\(loan.text)")
            let lent = try library.events()
            let retried = try await Self.send(api, "/api/v1/loans", borrow, key: "borrow-1", token: member)
            #expect(retried.status == .created && retried.text == loan.text)
            #expect(try library.events() == lent)
            let mine = try await api.send(.get, "/api/v1/me/loans", token: member).object
            #expect(mine["total"] as? Int == 1)
            // Without the header, the same request is a new one, as ever.
            #expect(try await Self.send(api, "/api/v1/books", Self.book, key: nil).status == .created)
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 2)
        }
    }

    @Test func theKeyOfAnotherRequestIsRefusedAndKeysBelongToTheirCaller() async throws {
        let library = try Library()
        try await withAPI(databasePath: library.path) { api in
            let first = try await Self.send(api, "/api/v1/books", Self.book, key: "k-1")
            #expect(first.status == .created)
            let events = try library.events()
            let other = try await Self.send(api, "/api/v1/books", #"{"title":"Emma","authors":["Jane Austen"]}"#, key: "k-1")
            #expect(other.status == .unprocessableContent)
            #expect(other.problemType == "urn:shelfmark:problem:idempotency-key-reused")
            #expect(other.text.contains("Idempotency-Key"))
            // The same bytes on another route are another request too.
            let elsewhere = try await Self.send(api, "/api/v1/loans", Self.book, key: "k-1")
            #expect(elsewhere.status == .unprocessableContent)
            #expect(try library.events() == events)
            // Another caller's key of the same spelling is theirs: a member borrowing with "k-1" borrows.
            let member = try await api.signUpMember("bob@example.org")
            let borrow = #"{"bookIds":["\#(try Self.bookID(first))"]}"#
            #expect(try await Self.send(api, "/api/v1/loans", borrow, key: "k-1", token: member).status == .created)
        }
    }

    @Test func concurrentDuplicatesRecordOneLoan() async throws {
        let library = try Library()
        try await withAPI(mode: .live, databasePath: library.path) { api in
            let book = try Self.bookID(try await Self.send(api, "/api/v1/books", Self.book, key: nil))
            let member = try await api.signUpMember("cy@example.org")
            let borrow = #"{"bookIds":["\#(book)"]}"#
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await Self.send(api, "/api/v1/loans", borrow, key: "same-borrow", token: member)
                        return (response.status, response.text)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let created = answers.filter { $0.0 == .created }
            #expect(!created.isEmpty)
            #expect(Set(created.map(\.1)).count == 1, "every 201 is the first answer")
            #expect(answers.allSatisfy { $0.0 == .created || $0.0 == .conflict }, "\(answers.map(\.0))")
            for refused in answers where refused.0 == .conflict {
                #expect(refused.1.contains("urn:shelfmark:problem:request-in-progress"))
            }
            let mine = try await api.send(.get, "/api/v1/me/loans", token: member).object
            #expect(mine["total"] as? Int == 1)
        }
    }

    @Test func keysAreForgottenAfterADay() async throws {
        let library = try Library()
        let clock = ManualClock()
        try await withAPI(databasePath: library.path, clock: clock) { api in
            let first = try await Self.send(api, "/api/v1/books", Self.book, key: "daily")
            clock.advance(by: 24 * 3600 - 1)
            #expect(try await Self.send(api, "/api/v1/books", Self.book, key: "daily").text == first.text)
            clock.advance(by: 1)
            let next = try await Self.send(api, "/api/v1/books", Self.book, key: "daily")
            #expect(next.status == .created)
            #expect(try Self.bookID(next) != Self.bookID(first))
            // The new request holds the key now, with its own answer.
            #expect(try await Self.send(api, "/api/v1/books", Self.book, key: "daily").text == next.text)
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 2)
        }
    }

    @Test func aRestartBetweenARequestAndItsRetryChangesNothing() async throws {
        let library = try Library()
        let borrow = try await withAPI(databasePath: library.path) { api in
            let book = try Self.bookID(try await Self.send(api, "/api/v1/books", Self.book, key: nil))
            let member = try await api.signUpMember("dee@example.org")
            let body = #"{"bookIds":["\#(book)"]}"#
            let loan = try await Self.send(api, "/api/v1/loans", body, key: "before-restart", token: member)
            #expect(loan.status == .created)
            return (member, body, loan.text)
        }
        try await withAPI(databasePath: library.path) { api in
            let events = try library.events()  // the fixture's librarian has logged in again by now
            let retried = try await Self.send(api, "/api/v1/loans", borrow.1, key: "before-restart", token: borrow.0)
            #expect(retried.status == .created)
            #expect(retried.text == borrow.2)
            #expect(try library.events() == events)
        }
    }

    @Test func aRequestRecordedWhoseAnswerWasLostIsNeverDoneAgain() async throws {
        let library = try Library()
        let borrow = try await withAPI(databasePath: library.path) { api in
            let book = try Self.bookID(try await Self.send(api, "/api/v1/books", Self.book, key: nil))
            let member = try await api.signUpMember("eve@example.org")
            let body = #"{"bookIds":["\#(book)"]}"#
            #expect(try await Self.send(api, "/api/v1/loans", body, key: "lost", token: member).status == .created)
            return (member, body)
        }
        // The crash between the commit (loan and receipt together) and keeping the answer.
        try library.execute("UPDATE request_receipts SET answer = NULL")
        try await withAPI(databasePath: library.path) { api in
            let events = try library.events()
            let retried = try await Self.send(api, "/api/v1/loans", borrow.1, key: "lost", token: borrow.0)
            #expect(retried.status == .conflict)
            #expect(retried.problemType == "urn:shelfmark:problem:request-already-recorded")
            #expect(retried.text.contains("Idempotency-Key"))
            let mine = try await api.send(.get, "/api/v1/me/loans", token: borrow.0).object
            #expect(mine["total"] as? Int == 1)
            #expect(try library.events() == events)
        }
    }

    @Test func aRefusedRequestRecordsNoKey() async throws {
        let library = try Library()
        try await withAPI(databasePath: library.path) { api in
            let member = try await api.signUpMember("fay@example.org")
            let ghost = #"{"bookIds":["00000000-0000-0000-0000-00000000dead"]}"#
            let refused = try await Self.send(api, "/api/v1/loans", ghost, key: "fix-me", token: member)
            #expect(refused.status == .notFound)
            let book = try Self.bookID(try await Self.send(api, "/api/v1/books", Self.book, key: nil))
            let corrected = try await Self.send(api, "/api/v1/loans", #"{"bookIds":["\#(book)"]}"#, key: "fix-me", token: member)
            #expect(corrected.status == .created, "\(corrected.text)")
            let invalid = try await Self.send(api, "/api/v1/books", #"{"title":" ","authors":[]}"#, key: "fix-book")
            #expect(invalid.status == .badRequest)
            #expect(try await Self.send(api, "/api/v1/books", Self.book, key: "fix-book").status == .created)
        }
    }

    @Test func aMalformedKeyIsRefusedNamingTheHeader() async throws {
        try await withAPI { api in
            for key in [String(repeating: "k", count: 256), "two words", "clé", "tab\tkey"] {
                let response = try await Self.send(api, "/api/v1/books", Self.book, key: key)
                #expect(response.status == .badRequest, "\(key)")
                #expect(response.problemType == "urn:shelfmark:problem:idempotency-key-invalid", "\(key)")
                #expect(response.text.contains("Idempotency-Key"))
            }
            // A key sent twice is no key (the two values read as one, with a comma and a space).
            var twice: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(api.librarianToken)"]
            twice.append(HTTPField(name: .init("Idempotency-Key")!, value: "a"))
            twice.append(HTTPField(name: .init("Idempotency-Key")!, value: "b"))
            let doubled = try await api.client.execute(
                uri: "/api/v1/books", method: .post, headers: twice, body: ByteBuffer(string: Self.book))
            #expect(doubled.status == .badRequest, "\(doubled.text)")
            let french = try await Self.send(api, "/api/v1/books", Self.book, key: "two words", language: "fr")
            #expect(try french.object["title"] as? String == "Idempotency-Key invalide")
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 0)
            #expect(try await Self.send(api, "/api/v1/books", Self.book, key: String(repeating: "k", count: 255)).status == .created)
        }
    }

    @Test func aSignupRetriedGetsItsSessionBackWhichTheFileDoesNotHoldInClear() async throws {
        let library = try Library()
        try await withAPI(databasePath: library.path) { api in
            let signup = #"{"email":"gil@example.org","password":"Member-Pass1","country":"FR"}"#
            let first = try await Self.send(api, "/api/v1/users", signup, key: "signup-gil", token: "")
            #expect(first.status == .created, "\(first.text)")
            let token = try #require(try first.object["token"] as? String)
            let again = try await Self.send(api, "/api/v1/users", signup, key: "signup-gil", token: "")
            #expect(again.status == .created && again.text == first.text)
            let other = #"{"email":"gil@example.org","password":"Other-Pass12","country":"FR"}"#
            #expect(try await Self.send(api, "/api/v1/users", other, key: "signup-gil", token: "").status == .unprocessableContent)
            let bytes =
                try Data(contentsOf: URL(fileURLWithPath: library.path))
                + ((try? Data(contentsOf: URL(fileURLWithPath: library.path + "-wal"))) ?? Data())
            #expect(bytes.range(of: Data(token.utf8)) == nil, "the session token is in the file in clear")
            #expect(bytes.range(of: Data("signup-gil".utf8)) == nil, "the key is in the file in clear")
        }
    }
}
