import Application
import Domain
import Foundation
import HummingbirdTesting
import Testing

/// A small Prolific client written from the API's description: what an app does over a session.
struct ProlificClient {
    let app: ProlificFixture

    func books() async throws -> [[String: Any]] { try await app.send(.get, "books/").array }

    func add(title: String, author: String, categories: String? = nil) async throws -> Int {
        var book: [String: Any] = ["title": title, "author": author]
        if let categories { book["categories"] = categories }
        let response = try await app.json(
            .post, "books/", String(decoding: try JSONSerialization.data(withJSONObject: book), as: UTF8.self))
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.object["id"] as? Int)
    }

    /// The checkout screen: sends the whole book back with the borrower's name and no time.
    func checkOut(_ id: Int, to name: String) async throws -> TestResponse {
        var book = try await app.send(.get, "books/\(id)/").object
        book["lastCheckedOutBy"] = name
        book["lastCheckedOut"] = nil
        return try await app.json(.put, "books/\(id)/", String(decoding: try JSONSerialization.data(withJSONObject: book), as: UTF8.self))
    }

    /// The edit screen: the changed fields, `lastCheckedOutBy` null, no time.
    func edit(_ id: Int, title: String) async throws -> TestResponse {
        try await app.json(.put, "books/\(id)/", #"{"title":"\#(title)","lastCheckedOutBy":null}"#)
    }

    func delete(_ id: Int) async throws -> TestResponse { try await app.send(.delete, "books/\(id)/") }
}

@Suite("Prolific API: a scripted session over a socket")
struct ProlificSessionTests {
    @Test func anAppsSessionLendsAWalkInLoanTheAuditVerifies() async throws {
        try await withProlific(mode: .live) { app in
            let client = ProlificClient(app: app)
            #expect(try await client.books().isEmpty)
            let dune = try await client.add(title: "Dune", author: "Frank Herbert", categories: "SF")
            let emma = try await client.add(title: "Emma", author: "Jane Austen")
            #expect(try await client.books().map { $0["id"] as? Int } == [dune, emma])
            #expect(try await client.edit(dune, title: "Dune (1965)").status == .ok)
            let lent = try await client.checkOut(dune, to: "Mrs Hudson")
            let borrower = try lent.object["lastCheckedOutBy"] as? String
            #expect(lent.status == .ok && borrower == "Mrs Hudson", "\(lent.text)")
            let refused = try await client.delete(dune)
            #expect(refused.status == .conflict && refused.error != nil, "\(refused.text)")
            #expect(try await client.delete(emma).status == .noContent)
            let shelf = try await client.books()
            #expect(
                shelf.count == 1 && shelf[0]["title"] as? String == "Dune (1965)" && shelf[0]["lastCheckedOutBy"] as? String == "Mrs Hudson"
            )

            // The checkout is a walk-in loan in the log, recorded as the key's librarian, and the log verifies.
            let loans = try await app.library.circulation.list.active(walkIn: "Mrs Hudson", by: .cliOperator)
            #expect(loans.items.count == 1 && loans.items[0].borrower == nil && loans.items[0].bookTitle == "Dune (1965)")
            var lines: [String] = []
            _ = try await app.library.exportLog.execute(by: .cliOperator) { lines.append($0) }
            let opened = try #require(lines.first { $0.contains("loan.opened.v1") })
            #expect(opened.contains("user:\(app.librarian)"), "\(opened)")
            #expect(lines.contains { $0.contains("walk-in") || $0.contains("walkin") })
            let checks = try await app.library.verifyLog.execute(by: .cliOperator)
            let failed = checks.filter { !$0.passed }
            #expect(failed.isEmpty, "\(failed)")
        }
    }
}
