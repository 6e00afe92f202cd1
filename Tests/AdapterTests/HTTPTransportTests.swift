import APIContract
import Application
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Wording

@testable import HTTPAPI

/// What the HTTP transport itself answers (issue 14): a wrong method, an unknown or malformed
/// address, input the generated code cannot decode, and the headers that go with the statuses.
@Suite("HTTP transport: methods, addresses, decoding and headers")
struct HTTPTransportTests {
    static let english = Wording.english

    /// The problem document's field errors, as `field: message` pairs.
    static func fieldErrors(_ response: TestResponse) throws -> [String: String] {
        let errors = try response.object["errors"] as? [[String: String]] ?? []
        return Dictionary(errors.map { ($0["field"] ?? "", $0["message"] ?? "") }) { first, _ in first }
    }

    @Test func aPathAskedWithAMethodItDoesNotAnswerIs405NamingThoseItDoes() async throws {
        let contract = try ContractShapes(contract: String(decoding: try HTTPServer.contract(), as: UTF8.self))
        let byPath = Dictionary(grouping: contract.operations, by: \.path)
        try await withAPI { api in
            for (path, operations) in byPath {
                let uri = "/api/v1" + path.replacingOccurrences(of: "{id}", with: "x").replacingOccurrences(of: "{key}", with: "x")
                let declared = Set(operations.map(\.method))
                var allowed = declared.union(["OPTIONS"])
                if declared.contains("GET") { allowed.insert("HEAD") }
                for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] where !declared.contains(method) {
                    let response = try await api.send(.init(rawValue: method)!, uri)
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri): \(response.status)")
                    #expect(response.problemType == "urn:shelfmark:problem:method-not-allowed")
                    let header = Set((response.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(header == allowed, "\(method) \(uri): Allow \(header), the contract says \(allowed)")
                }
                let options = try await api.send(.options, uri)
                #expect(options.status == .noContent, "OPTIONS \(uri)")
                #expect(
                    Set((options.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) == allowed)
            }
            let head = try await api.send(.head, "/api/v1/books")
            #expect(head.status == .ok && head.body.readableBytes == 0)
        }
    }

    @Test func anUnknownPathIsA404Problem() async throws {
        try await withAPI { api in
            for method: HTTPRequest.Method in [.get, .put, .options] {
                let response = try await api.send(method, "/api/v1/bookz")
                #expect(response.status == .notFound)
                #expect(response.problemType == "urn:shelfmark:problem:not-found")
                #expect(try response.object["detail"] as? String == TransportTexts.noSuchPath("/api/v1/bookz"))
            }
        }
    }

    @Test(
        "a broken percent-encoding is a 400 problem, not another query",
        arguments: ["/api/v1/books?q=%zz", "/api/v1/books?q=caf%C3", "/api/v1/books/%E2%28"])
    func brokenPercentEncoding(uri: String) async throws {
        try await withAPI { api in
            let response = try await api.send(.get, uri)
            #expect(response.status == .badRequest, "\(uri): \(response.status)")
            #expect(try response.object["detail"] as? String == TransportTexts.malformedURL)
            #expect(try await api.send(.get, "/api/v1/books?q=caf%C3%A9").status == .ok)
        }
    }

    @Test(
        "an address the HTTP parser refuses is answered with a problem document",
        arguments: ["/api/v1/books?q=caf\u{E9}", "/api/v1/books?q=a b"])
    func addressesTheParserRefuses(target: String) async throws {
        try await withAPI(mode: .live) { api in
            let connection = try RawConnection(port: try #require(api.client.port))
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = await connection.readAll(seconds: 5)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(answer.lowercased().contains("content-type: application/problem+json"), "\(answer)")
            #expect(answer.contains("urn:shelfmark:problem:malformed-request"), "\(answer)")
            #expect(await connection.waitForClose(seconds: 5))
        }
    }

    @Test func anEnumerationParameterListsItsChoicesFromTheContract() async throws {
        try await withAPI { api in
            let response = try await api.send(.get, "/api/v1/books?sort=bogus")
            #expect(response.status == .badRequest)
            let choices = Components.Schemas.BookSort.allCases.map(\.rawValue)
            #expect(try Self.fieldErrors(response) == ["sort": Self.english.text(FieldProblem.notOneOf(choices))], "\(response.text)")
            let search = try await api.send(.get, "/api/v1/search?sort=bogus")
            let searchChoices = Operations.SearchBooks.Input.Query.SortPayload.allCases.map(\.rawValue)
            #expect(try Self.fieldErrors(search) == ["sort": Self.english.text(FieldProblem.notOneOf(searchChoices))], "\(search.text)")
        }
    }

    @Test func parametersAreNamedWithWhatTheyExpect() async throws {
        try await withAPI { api in
            let cases: [(String, String, FieldProblem)] = [
                ("/api/v1/books?q=hello&limit=abc", "limit", .wrongType(.integer)),
                ("/api/v1/loans?overdue=maybe", "overdue", .wrongType(.boolean)),
                ("/api/v1/books?confirm=perhaps", "confirm", .wrongType(.boolean)),
                ("/api/v1/audit/as-of?at=yesterday&view=books", "at", .wrongType(.time)),
                ("/api/v1/audit/as-of?view=books", "at", .required),
            ]
            for (uri, field, problem) in cases {
                let response = try await api.send(uri.contains("confirm") ? .delete : .get, uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try Self.fieldErrors(response) == [field: Self.english.text(problem)], "\(uri): \(response.text)")
                #expect(!response.text.contains("body"), "\(uri): \(response.text)")
            }
        }
    }

    @Test func bodyFieldsAreNamedWithWhatTheyExpect() async throws {
        try await withAPI { api in
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: #"{"title":"T","authors":["A"]}"#).object["id"] as? String)
            let member = try await api.signUpMember("ada@example.org")
            let memberID = try #require(try await api.send(.get, "/api/v1/me", token: member).object["id"] as? String)
            let cases: [(HTTPRequest.Method, String, String, String, FieldProblem)] = [
                (.post, "/api/v1/books", #"{"title":"T","authors":["A"],"copies":1.5}"#, "copies", .wrongType(.integer)),
                (.patch, "/api/v1/books/\(book)", #"{"copies":1e30}"#, "copies", .wrongType(.integer)),
                (.post, "/api/v1/books", #"{"title":"T","authors":["A"],"copies":"two"}"#, "copies", .wrongType(.integer)),
                (.post, "/api/v1/books", #"{"title":"T","authors":["A"],"shelf":"B2"}"#, "shelf", .unknownField),
                (.post, "/api/v1/books", #"{"title":"T","authors":[7]}"#, "authors[0]", .wrongType(.string)),
                (.post, "/api/v1/books", #"{"title":"T"}"#, "authors", .required),
                (
                    .post, "/api/v1/users/\(memberID)/role", #"{"role":"admin"}"#, "role",
                    .notOneOf(Components.Schemas.Role.allCases.map(\.rawValue))
                ),
            ]
            for (method, uri, json, field, problem) in cases {
                let response = try await api.send(method, uri, json: json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(try Self.fieldErrors(response) == [field: Self.english.text(problem)], "\(json): \(response.text)")
            }
        }
    }

    @Test func aBodyThatIsNotAJSONObjectIsSaidSo() async throws {
        try await withAPI { api in
            let cases = [
                ("not JSON at all", TransportTexts.notJSON), ("[]", TransportTexts.notAnObject), ("", TransportTexts.bodyRequired),
            ]
            for (body, detail) in cases {
                let response = try await api.send(.post, "/api/v1/books", json: body)
                #expect(response.status == .badRequest)
                #expect(try response.object["detail"] as? String == detail, "\(body): \(response.text)")
            }
        }
    }

    @Test func mediaTypesTheServerCannotReadOrWriteAreProblems() async throws {
        try await withAPI { api in
            let auth = "Bearer \(api.librarianToken)"
            let text = try await api.client.execute(
                uri: "/api/v1/books", method: .post, headers: [.authorization: auth, .contentType: "text/plain"],
                body: ByteBuffer(string: #"{"title":"T","authors":["A"]}"#))
            #expect(text.status == .unsupportedMediaType)
            #expect(text.problemType == "urn:shelfmark:problem:unsupported-media-type", "\(text.text)")
            let html = try await api.client.execute(uri: "/api/v1/books", method: .get, headers: [.accept: "text/html"])
            #expect(html.status == .notAcceptable)
            #expect(html.problemType == "urn:shelfmark:problem:not-acceptable", "\(html.text)")
        }
    }

    /// Answers write URLs as the CLI's --json does, without escaping their slashes.
    @Test func addressesInAnswersAreWrittenAsTheyAre() async throws {
        try await withAPI { api in
            let created = try await api.send(
                .post, "/api/v1/books", json: #"{"title":"T","authors":["A"],"coverUrl":"https://covers.example/b/1-M.jpg"}"#)
            #expect(created.status == .created)
            #expect(created.text.contains(#""https://covers.example/b/1-M.jpg""#), "\(created.text)")
        }
    }

    /// The generated code checks Accept only when it writes the answer: a POST asking for HTML
    /// added the book, then answered 406. The check now comes before the operation runs.
    @Test func aChangeAskedForInAFormatTheAPICannotWriteChangesNothing() async throws {
        try await withAPI { api in
            let auth = "Bearer \(api.librarianToken)"
            let html = try await api.client.execute(
                uri: "/api/v1/books", method: .post,
                headers: [.authorization: auth, .contentType: "application/json", .accept: "text/html"],
                body: ByteBuffer(string: #"{"title":"Never added","authors":["A"]}"#))
            #expect(html.status == .notAcceptable)
            #expect(html.problemType == "urn:shelfmark:problem:not-acceptable", "\(html.text)")
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 0)
            for accept in ["application/json", "*/*", "text/html, application/*;q=0.1", "Application/JSON; charset=utf-8"] {
                let response = try await api.client.execute(
                    uri: "/api/v1/books", method: .get, headers: [.authorization: auth, .accept: accept])
                #expect(response.status == .ok, "Accept: \(accept)")
            }
            for accept in ["application/json;q=0", "application/problem+json", "text/*"] {
                let refused = try await api.client.execute(
                    uri: "/api/v1/books", method: .get, headers: [.authorization: auth, .accept: accept])
                #expect(refused.status == .notAcceptable, "Accept: \(accept)")
            }
        }
    }

    @Test func theStorageBeingDownIsA503WithRetryAfter() async throws {
        // The health check's failure cannot be provoked on a running database: the error is thrown here.
        let router = Router()
        router.add(middleware: ProblemMiddleware(requests: RequestProblems(contract: ContractShapes(operations: []))))
        router.get("/down") { _, _ -> Response in throw StorageUnavailable() }
        router.get("/busy") { _, _ -> Response in throw TooMuchContention(attempts: 64) }
        router.get("/plain") { _, _ in Response(status: .serviceUnavailable) }
        try await Application(router: router).test(.router) { client in
            for (uri, seconds) in [("/down", RetryAfter.other), ("/busy", RetryAfter.contention), ("/plain", RetryAfter.other)] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == String(seconds), "\(uri)")
            }
        }
    }

    @Test func theContractIsReadAsTheGeneratedCodeReadsIt() throws {
        let contract = try ContractShapes(contract: String(decoding: try HTTPServer.contract(), as: UTF8.self))
        let sort = contract.operation("listBooks")?.parameters.first { $0.name == "sort" }
        #expect(sort?.shape == .choice(Components.Schemas.BookSort.allCases.map(\.rawValue)))
        let role = contract.operation("changeRole")?.body?.at(["role"])
        #expect(role == .choice(Components.Schemas.Role.allCases.map(\.rawValue)))
        #expect(contract.operation("createBook")?.body?.at(["copies"]) == .integer)
        #expect(contract.operations.count == OperationRoutes.table.count)
    }

    @Test func theYAMLReaderReadsTheSubsetAndRefusesTheRest() throws {
        let text = """
            a: 1 # a comment
            b: {c: [x, 'y, z'], d: "q\\"r"}
            list:
              - name: n
                in: query
              - {k: v}
              - plain
            folded: >-
              one
              two
            """
        let value = try YAMLValue.parse(text)
        #expect(value["a"] == .scalar("1"))
        #expect(value["b"]?["c"] == .list([.scalar("x"), .scalar("y, z")]))
        #expect(value["b"]?["d"] == .scalar("q\"r"))
        #expect(value["list"]?.items.count == 3)
        #expect(value["list"]?.items.first?["in"] == .scalar("query"))
        #expect(value["folded"] == .scalar("one two"))
    }
}
