import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import HTTPAPI

/// A library prepared for provoking every error of the contract over real HTTP: a member, a free
/// book, a book whose two copies are both lent (one to the member), and the member's loan. Every
/// request goes through `send`, which keeps every answer for the checks made on all of them.
final class ErrorWalk: Sendable {
    enum Caller: Sendable { case librarian, member, anonymous, stranger }

    let api: APIClient
    let fake: FakeUpstreams
    let member: String
    let memberID: String
    let book: String
    let lentBook: String
    let loan: String
    /// Every request sent and its answer.
    let seen = Mutex<[(request: String, body: Bool, response: Answer)]>([])
    private let addresses = Mutex(0)

    static let ghost = "7d2c1a0e-0000-4000-8000-000000000000"

    private init(api: APIClient, fake: FakeUpstreams, member: String, memberID: String, book: String, lentBook: String, loan: String) {
        (self.api, self.fake, self.member, self.memberID) = (api, fake, member, memberID)
        (self.book, self.lentBook, self.loan) = (book, lentBook, loan)
    }

    /// Searches and changes one address may make per minute in the walk (`withAPI`'s setting):
    /// enough for the preparation's requests from the test's own address.
    static let addressRate = 8
    /// The address whose buckets the 429s' provocations empty.
    static let emptiedAddress = "2001:db8:429::1"

    static func prepare(_ api: APIClient, _ fake: FakeUpstreams) async throws -> ErrorWalk {
        let signup = try await api.send(
            .post, "/api/v1/users", json: #"{"email":"ada@example.org","password":"Member-Pass1","country":"FR"}"#, token: .none)
        let member = try #require(try signup.object["token"] as? String)
        let memberID = try #require((try signup.object["user"] as? [String: Any])?["id"] as? String)
        func add(_ json: String) async throws -> String {
            try #require(try await api.send(.post, "/api/v1/books", json: json).object["id"] as? String)
        }
        let book = try await add(#"{"title":"The Hobbit","authors":["J. R. R. Tolkien"],"copies":3}"#)
        let lentBook = try await add(#"{"title":"Middlemarch","authors":["George Eliot"],"copies":2}"#)
        let borrowed = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(lentBook)"]}"#, token: member)
        let loan = try #require(((try borrowed.object["loans"] as? [[String: Any]])?.first)?["id"] as? String)
        #expect(try await api.send(.post, "/api/v1/books/\(lentBook)/checkout", json: #"{"borrowerName":"Mrs Hudson"}"#).status == .created)
        return ErrorWalk(api: api, fake: fake, member: member, memberID: memberID, book: book, lentBook: lentBook, loan: loan)
    }

    /// Sends a request as `caller`, from an address of its own unless `from` names one (logins and
    /// signups are limited per address), and keeps the answer.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, as caller: Caller = .librarian, from address: String? = nil,
        body: ByteBuffer? = nil, key: String? = nil, ifMatch: String? = nil
    ) async throws -> Answer {
        var headers: HTTPFields = [:]
        if let ifMatch { headers[.ifMatch] = ifMatch }
        headers[.init("X-Forwarded-For")!] = address ?? nextAddress()
        if let key { headers[.init("Idempotency-Key")!] = key }
        if json != nil || body != nil { headers[.contentType] = "application/json" }
        switch caller {
        case .librarian: headers[.authorization] = "Bearer \(api.librarianToken)"
        case .member: headers[.authorization] = "Bearer \(member)"
        case .stranger: headers[.authorization] = "Bearer smk_not-a-token"
        case .anonymous: break
        }
        let sent = body ?? json.map { ByteBuffer(string: $0) }
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: sent)
        // A connection of its own: a refused body is answered with `Connection: close`.
        let response = try await TestClient.withClient(host: "localhost", port: try #require(api.client.port)) { client in
            Answer(try await client.execute(request))
        }
        seen.withLock { $0.append(("\(method) \(uri)", sent != nil, response)) }
        return response
    }

    private func nextAddress() -> String { "2001:db8::\(addresses.withLock { $0 += 1; return $0 })" }

    /// The operation's path with its parameters filled from the library prepared.
    func path(_ operation: ContractShapes.Operation, id: String? = nil) -> String {
        let id = id ?? defaultID(operation)
        return "/api/v1"
            + operation.path.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{key}", with: "OL27448W")
            .replacingOccurrences(of: "{idOrEmail}", with: "ada@example.org")
    }

    private func defaultID(_ operation: ContractShapes.Operation) -> String {
        switch operation.id {
        case "changeRole": memberID
        case "returnLoan", "renewLoan": loan
        case "markNotificationRead": "no-such-notice"
        default: book
        }
    }
}

/// An answer as the walk reads it.
struct Answer: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let text: String

    init(_ response: TestClient.Response) {
        status = response.status
        headers = response.headers
        text = response.body.map { String(buffer: $0) } ?? ""
    }

    var object: [String: Any] {
        get throws { try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) }
    }
}
