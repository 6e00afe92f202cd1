import Composition
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// Every list of the contract is paged alike: the same parameters, defaults, maximum, envelope
/// and refusals. The lists are read from `openapi.yaml`, so a new list is walked too (or fails
/// here until it is given its fixture). Arrays that are not lists stay whole: `/audit/as-of` is a
/// view replayed from the log for each request (a page would replay it again per page), `/audit/verify`
/// the fixed list of checks, and `POST /loans` and `DELETE /books` report on what the request did.
@Suite("HTTP API: every list paged alike")
struct HTTPPagingTests {
    static let lists: Set<String> = [
        "/users", "/countries", "/loans", "/me/loans", "/me/notifications", "/search", "/me/bookmarks", "/audit/history", "/books",
        "/me/holds", "/holds", "/books/{id}/holds",
    ]

    @Test func theContractsListsShareTheLimitAndOffsetParametersAndNoListIsABareArray() throws {
        let contract = try ContractLists()
        let operations = contract.listOperations
        #expect(Set(operations.map(\.path)) == Self.lists, "list operations changed: give a new one its walk below")
        for operation in operations {
            #expect(operation.parameterRefs.contains("#/components/parameters/Limit"), "\(operation.path)")
            // Open Library pages no deeper than 10,000, so the search declares its own offset.
            let sharedOffset = operation.parameterRefs.contains("#/components/parameters/Offset")
            #expect(operation.path == "/search" ? operation.parameterNames.contains("offset") : sharedOffset, "\(operation.path)")
            #expect(!operation.parameterNames.contains("limit"), "\(operation.path) declares its own limit")
        }
        for get in contract.gets { #expect(!ContractLists.isBareArray(contract.answer(get.body)), "\(get.path) answers a bare array") }
    }

    @Test func everyListIsPagedAlike() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfmark-paging-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        try await FakeUpstreams().run { base in
            try await withAPI(databasePath: path, clock: clock, configure: { $0.openLibraryURL = base + "/ok" }) { api in
                let fixture = try await Self.fill(api, path: path, clock: clock)
                let operations = try ContractLists().listOperations
                #expect(operations.count == Self.lists.count)
                for operation in operations {
                    let (uri, token) = try #require(fixture[operation.path], "no walk for \(operation.path)")
                    try await Self.checkPaging(api, uri, token: token)
                }
            }
        }
    }

    /// Three or more items in every list: books, members, loans, notices, bookmarks, a book's history.
    static func fill(_ api: APIClient, path: String, clock: ManualClock) async throws -> [String: (String, String??)] {
        var books: [String] = []
        for title in ["Dune", "Emma", "Ulysses"] {
            let made = try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":3}"#)
            books.append(try #require(try made.object["id"] as? String))
        }
        let ada = try await api.signUpMember("ada@example.org")
        let bob = try await api.signUpMember("bob@example.org")
        let cy = try await api.signUpMember("cy@example.org")
        // Three books whose only copy is out: Bob waits for all three, Ada and Cy for the first too.
        var waited: [String] = []
        for title in ["Held 1", "Held 2", "Held 3"] {
            let made = try await api.send(.post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["A"],"copies":1}"#)
            let id = try #require(try made.object["id"] as? String)
            _ = try await api.send(.post, "/api/v1/books/\(id)/checkout", json: #"{"borrowerName":"Walk-in"}"#)
            waited.append(id)
        }
        for (member, books) in [(bob, waited), (ada, [waited[0]]), (cy, [waited[0]])] {
            for id in books {
                #expect(try await api.send(.post, "/api/v1/holds", json: #"{"bookId":"\#(id)"}"#, token: member).status == .created)
            }
        }
        let ids = books.map { "\"\($0)\"" }.joined(separator: ",")
        #expect(try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":[\#(ids)]}"#, token: ada).status == .created)
        for book in books { #expect(try await api.send(.put, "/api/v1/me/bookmarks/books/\(book)", token: ada).status == .ok) }
        for copies in [4, 5] { _ = try await api.send(.patch, "/api/v1/books/\(books[0])", json: #"{"copies":\#(copies)}"#) }
        clock.advance(by: 13 * 24 * 3600)
        var configuration = ShelfmarkConfiguration(databasePath: path)
        configuration.durability = .off
        let (library, database) = try Bootstrap.openLibrary(configuration, clock: clock, ids: RandomIDsForTests())
        #expect(try await library.circulation.scan.execute(by: .system) == 3)
        try database.close()
        // As `APIClient.send` reads a token: `.some(nil)` the librarian's, `.none` anonymous.
        let librarian: String?? = .some(nil)
        let anonymous: String?? = .none
        return [
            "/users": ("/api/v1/users", librarian), "/countries": ("/api/v1/countries", anonymous),
            "/loans": ("/api/v1/loans", librarian), "/me/loans": ("/api/v1/me/loans", ada),
            "/me/notifications": ("/api/v1/me/notifications", ada),
            "/search": ("/api/v1/search?title=lord%20of%20the%20rings", anonymous), "/me/bookmarks": ("/api/v1/me/bookmarks", ada),
            "/audit/history": ("/api/v1/audit/history?book=\(books[0])", librarian), "/books": ("/api/v1/books", anonymous),
            "/me/holds": ("/api/v1/me/holds", bob), "/holds": ("/api/v1/holds", librarian),
            "/books/{id}/holds": ("/api/v1/books/\(waited[0])/holds", librarian),
        ]
    }

    static func get(_ api: APIClient, _ uri: String, _ query: String, token: String??) async throws -> TestResponse {
        try await api.send(.get, uri + (uri.contains("?") ? "&" : "?") + query, token: token)
    }

    /// Defaults, the maximum, a walk by `nextOffset` to the total, past the end, and bad values.
    static func checkPaging(_ api: APIClient, _ uri: String, token: String??) async throws {
        let first = try await api.send(.get, uri, token: token)
        #expect(first.status == .ok, "\(uri): \(first.text)")
        let envelope = try first.object
        #expect(Set(envelope.keys).isSuperset(of: ["items", "total", "offset", "limit"]), "\(uri): \(envelope.keys)")
        #expect(envelope["results"] == nil)
        #expect(envelope["offset"] as? Int == 0 && envelope["limit"] as? Int == 20, "\(uri) default page")
        let total = try #require(envelope["total"] as? Int)
        #expect(total >= 3, "\(uri) needs three items to walk")
        #expect((envelope["items"] as? [Any])?.count == min(total, 20))
        #expect((envelope["nextOffset"] as? Int) == (total > 20 ? 20 : nil), "\(uri)")

        let largest = try await get(api, uri, "limit=100", token: token)
        let largestLimit = try largest.object["limit"] as? Int
        #expect(largest.status == .ok && largestLimit == 100, "\(uri)")

        // Open Library's total is its own (hundreds), and the fake answers every offset alike: a few pages only.
        let bySearch = uri.contains("/search")
        let size = total > 200 ? 50 : 2
        var offset = 0
        var seen = 0
        var pages = 0
        while true {
            let page = try await get(api, uri, "limit=\(size)&offset=\(offset)", token: token)
            #expect(page.status == .ok, "\(uri) at \(offset): \(page.text)")
            let object = try page.object
            let items = try #require(object["items"] as? [Any])
            #expect(object["total"] as? Int == total && object["offset"] as? Int == offset && object["limit"] as? Int == size)
            #expect(items.count == min(size, total - offset), "\(uri) at \(offset)")
            seen += items.count
            pages += 1
            guard let next = object["nextOffset"] as? Int, !(bySearch && pages == 3) else { break }
            #expect(next == offset + items.count)
            offset = next
        }
        #expect(bySearch || seen == total, "\(uri): the walk reached \(seen) of \(total)")

        let past = try await get(api, uri, "offset=\(bySearch ? 10_000 : total + 5)", token: token)
        #expect(past.status == .ok, "\(uri): \(past.text)")
        if !bySearch {
            let object = try past.object
            #expect((object["items"] as? [Any])?.isEmpty == true && object["total"] as? Int == total && object["nextOffset"] == nil)
        }

        for (query, field) in badValues {
            let refused = try await get(api, uri, query, token: token)
            #expect(refused.status == .badRequest, "\(uri)?\(query): \(refused.status) \(refused.text)")
            #expect(refused.headers[.contentType] == "application/problem+json", "\(uri)?\(query)")
            let errors = (try? refused.object["errors"] as? [[String: Any]]) ?? []
            #expect(errors.contains { $0["field"] as? String == field }, "\(uri)?\(query): \(refused.text)")
        }
        let range = try await get(api, uri, "limit=101", token: token)
        let message = ((try? range.object["errors"] as? [[String: Any]]) ?? []).first?["message"] as? String ?? ""
        #expect(message.contains("1") && message.contains("100"), "\(uri): the refusal names the range: \(message)")
    }

    static let badValues: [(String, String)] = [
        ("limit=0", "limit"), ("limit=101", "limit"), ("limit=-1", "limit"), ("limit=1e3", "limit"), ("limit=abc", "limit"),
        ("limit=9223372036854775807", "limit"), ("limit=9223372036854775808", "limit"),
        ("offset=-1", "offset"), ("offset=9223372036854775807", "offset"), ("offset=99999999999999999999", "offset"),
        ("offset=abc", "offset"), ("offset=1.5", "offset"),
    ]
}
