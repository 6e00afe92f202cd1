import Application
import Composition
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemory
import Testing

/// Issue 21: searches and changes are rated per account and per client address (token buckets,
/// configurable), so one misbehaving client cannot starve the library: over the rate a 429 with
/// `Retry-After` and `RateLimit-*`, and nothing done.
@Suite("Request rates")
struct RateLimitTests {
    static func rates(account: Int = 1_000, address: Int = 1_000) -> (inout ShelfmarkConfiguration) -> Void {
        { configuration in
            configuration.trustedProxies = ["127.0.0.1"]
            configuration.rates.writesPerMinute = account
            configuration.rates.searchesPerMinute = account
            configuration.rates.addressWritesPerMinute = address
            configuration.rates.addressSearchesPerMinute = address
        }
    }

    @Test func anAccountOverItsWriteRateIsRefusedFromAnyAddressAndNothingIsDone() async throws {
        let clock = ManualClock()
        try await withAPI(mode: .live, clock: clock, configure: Self.rates(account: 3)) { api in
            let book = try #require(try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["F. H."]}"#).object["id"])
            let ada = try await api.signUpMember("ada@example.org")
            var remaining: [String?] = []
            for n in 0..<3 {
                let read = try await api.send(
                    .post, "/api/v1/me/notifications/read-all", token: ada, headers: [.xForwardedFor: "203.0.113.\(n)"])
                #expect(read.status == .noContent && read.headers[.rateLimitLimit] == "3")
                remaining.append(read.headers[.rateLimitRemaining])
            }
            #expect(remaining == ["2", "1", "0"])
            // A refused body is answered at once with `Connection: close`: a connection of its own.
            let borrow = TestClient.Request(
                "/api/v1/loans", method: .post, authority: "localhost",
                headers: [.authorization: "Bearer \(ada)", .contentType: "application/json", .xForwardedFor: "198.51.100.9"],
                body: ByteBuffer(string: #"{"bookIds":["\#(book)"]}"#))
            let refused = try await TestClient.withClient(host: "localhost", port: try #require(api.client.port)) {
                try await $0.execute(borrow)
            }
            let problem = refused.body.map { String(buffer: $0) } ?? ""
            #expect(refused.status == .tooManyRequests && problem.contains("urn:shelfmark:problem:rate-limited"), "\(problem)")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1 && refused.headers[.rateLimitRemaining] == "0")
            #expect(try await api.send(.get, "/api/v1/me/loans", token: ada).object["total"] as? Int == 0, "nothing was borrowed")
            #expect(try await api.send(.get, "/api/v1/books/\(book)", token: ada).status == .ok, "reads are not rated")
            let bob = try await api.signUpMember("bob@example.org")
            #expect(
                try await api.send(.post, "/api/v1/me/notifications/read-all", token: bob).status == .noContent,
                "another account is not held up")

            clock.advance(by: 60)
            let later = try await api.send(.post, "/api/v1/loans", json: #"{"bookIds":["\#(book)"]}"#, token: ada)
            #expect(later.status == .created, "the bucket refills: \(later.text)")
        }
    }

    @Test func anAddressOverItsSearchRateIsRefusedOthersAreNot() async throws {
        try await withAPI(mode: .live, configure: Self.rates(address: 2)) { api in
            let from: HTTPFields = [.xForwardedFor: "203.0.113.7"]
            for _ in 0..<2 { #expect(try await api.send(.get, "/api/v1/books?q=dune", token: .none, headers: from).status == .ok) }
            let refused = try await api.send(.get, "/api/v1/books?q=dune", token: .none, headers: from)
            #expect(refused.status == .tooManyRequests && refused.headers[.rateLimitLimit] == "2", "\(refused.text)")
            #expect(try await api.send(.get, "/api/v1/books?q=dune", token: .none, headers: [.xForwardedFor: "203.0.113.8"]).status == .ok)
            #expect(try await api.send(.get, "/api/v1/books", token: .none, headers: from).status == .ok, "a list without a query")
            let page = try await api.send(.get, "/api/v1/books/\(UUID())", token: .none, headers: from)
            #expect(page.status == .notFound, "a book's page is no search")
        }
    }

    @Test func aFormOverTheRateIsA429PageAndDoesNothing() async throws {
        try await withAPI(mode: .live, configure: Self.rates(address: 1)) { api in
            let from: HTTPFields = [.xForwardedFor: "203.0.113.20", .accept: "text/html"]
            #expect(try await api.client.execute(uri: "/books?q=dune", method: .get, headers: from).status == .ok)
            let searched = try await api.client.execute(uri: "/books?q=dune", method: .get, headers: from)
            #expect(searched.status == .tooManyRequests && searched.headers[.retryAfter] != nil, "\(searched.status)")
            #expect(String(buffer: searched.body).contains("Too many requests of this kind"))
            #expect(try await api.client.execute(uri: "/books", method: .get, headers: from).status == .ok, "a list without a query")
            for bypass in ["/books/?q=dune", "//books?q=dune", "/search/?q=dune"] {
                #expect(try await api.client.execute(uri: bypass, method: .get, headers: from).status == .tooManyRequests, "\(bypass)")
            }
            var form = from
            form[.contentType] = "application/x-www-form-urlencoded"
            let first = try await api.client.execute(
                uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "login=a&password=b"))
            #expect(first.status != .tooManyRequests)
            let second = try await api.client.execute(
                uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "login=a&password=b"))
            #expect(second.status == .tooManyRequests && second.headers[.rateLimitRemaining] == "0")
        }
    }

    @Test func aProlificKeysLibrarianIsRatedForChanges() async throws {
        var rates = RateSettings.unlimited
        rates.writesPerMinute = 1
        try await withProlific(rates: rates) { app in
            #expect(try await app.json(.post, "books/", #"{"title":"Dune","author":"Frank Herbert"}"#).status == .created)
            let refused = try await app.json(.post, "books/", #"{"title":"Emma","author":"Jane Austen"}"#)
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil, "\(refused.text)")
            #expect(refused.text.contains("too many requests"), "\(refused.text)")
            #expect(try await app.send(.get, "books/").status == .ok, "reading is not rated")
        }
    }

    @Test func theTighterBucketSpeaksAndTheOperatorIsNotRated() throws {
        var settings = RateSettings()
        (settings.writesPerMinute, settings.addressWritesPerMinute) = (2, 10)
        let rates = RequestRates(settings: settings, clock: ManualClock())
        let member = Principal.user(UserID(UUID()), .member, SessionID(UUID()))
        #expect(try rates.admit(.write, client: "192.0.2.1", by: member) == RateAllowance(limit: 2, remaining: 1, resetSeconds: 30))
        #expect(try rates.admit(.write, client: "192.0.2.1", by: .anonymous) == RateAllowance(limit: 10, remaining: 8, resetSeconds: 12))
        _ = try rates.admit(.write, client: nil, by: member)
        #expect(throws: RateLimited.self) { try rates.admit(.write, client: "192.0.2.2", by: member) }
        #expect(try rates.admit(.search, client: "192.0.2.2", by: member) != nil, "searches have buckets of their own")
        #expect(try rates.admit(.write, client: "192.0.2.1", by: .cliOperator) == nil)
        #expect(
            RatedRequest.of(.showBook, changes: false) == nil && RatedRequest.of(.listBooks, changes: false, searching: true) == .search)
        #expect(RatedRequest.of(.listBooks, changes: false) == nil, "a list without a query is no search")
        #expect(RatedRequest.of(.showBook, changes: true) == .write)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let rateLimitLimit = Self("RateLimit-Limit")!
    static let rateLimitRemaining = Self("RateLimit-Remaining")!
}
