import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: catalogue")
struct HTTPCatalogueTests {
    let dune = #"{"title":"Dune","authors":["Frank Herbert"],"isbn":"0-441-17271-7","categories":["sf"],"copies":2}"#

    @Test func createGetListPatchDelete() async throws {
        try await withAPI { client in
            let created = try await client.send(.post, "/api/v1/books", json: dune)
            #expect(created.status == .created)
            let book = try created.object
            let id = try #require(book["id"] as? String)
            #expect(created.headers[.location] == "/api/v1/books/\(id)")
            #expect(book["isbn"] as? String == "9780441172719")
            #expect(book["available"] as? Int == 2)

            let fetched = try await client.send(.get, "/api/v1/books/\(id)")
            #expect(fetched.status == .ok)
            #expect(try fetched.object["title"] as? String == "Dune")

            let patched = try await client.send(.patch, "/api/v1/books/\(id)", json: #"{"publisher":"Chilton","copies":5}"#)
            #expect(patched.status == .ok)
            #expect(try patched.object["publisher"] as? String == "Chilton")
            #expect(try patched.object["copies"] as? Int == 5)

            let list = try await client.send(.get, "/api/v1/books?q=herb&sort=title&limit=10")
            #expect(list.status == .ok)
            let page = try list.object
            #expect(page["total"] as? Int == 1)
            #expect((page["items"] as? [[String: Any]])?.first?["id"] as? String == id)

            #expect(try await client.send(.delete, "/api/v1/books/\(id)").status == .noContent)
            let gone = try await client.send(.get, "/api/v1/books/\(id)")
            #expect(gone.status == .notFound)
            #expect(gone.problemType == "urn:shelfmark:problem:not-found")
        }
    }

    @Test func pagingReportsTotalAndNextOffset() async throws {
        try await withAPI { client in
            for n in 1...3 {
                _ = try await client.send(.post, "/api/v1/books", json: #"{"title":"Book \#(n)","authors":["A"]}"#)
            }
            let first = try await client.send(.get, "/api/v1/books?sort=oldest&limit=2").object
            #expect(first["total"] as? Int == 3 && first["nextOffset"] as? Int == 2)
            let last = try await client.send(.get, "/api/v1/books?sort=oldest&limit=2&offset=2").object
            #expect((last["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Book 3"])
            #expect(last["nextOffset"] == nil)
        }
    }

    @Test(
        "bad input is a 400 problem with field errors, and changes nothing",
        arguments: [
            (#"{"authors":["A"]}"#, "title"),
            (#"{"title":"T","authors":["A"],"isbn":"978-0-306-40615-8"}"#, "isbn"),
            (#"{"title":"T","authors":["A"],"copies":0}"#, "copies"),
            (#"{"title":" ","authors":["A"]}"#, "title"),
            (#"{"title":"T","authors":[]}"#, "authors"),
            (#"{"title":5,"authors":["A"]}"#, "title"),
        ])
    func badInput(json: String, field: String) async throws {
        try await withAPI { client in
            let response = try await client.send(.post, "/api/v1/books", json: json)
            #expect(response.status == .badRequest)
            #expect(response.problemType != nil)
            let errors = try response.object["errors"] as? [[String: String]]
            #expect(errors?.contains { $0["field"] == field } == true, "\(response.text)")
            #expect(try await client.send(.get, "/api/v1/books").object["total"] as? Int == 0)
        }
    }

    @Test func malformedJSONIsA400Problem() async throws {
        try await withAPI { client in
            let response = try await client.send(.post, "/api/v1/books", json: "{not json")
            #expect(response.status == .badRequest)
            #expect(response.problemType == "urn:shelfmark:problem:malformed-request")
        }
    }

    @Test func unknownAndMalformedIDsAre404Problems() async throws {
        try await withAPI { client in
            for uri in ["/api/v1/books/7d2c1a0e-0000-4000-8000-000000000000", "/api/v1/books/nope"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .notFound)
                #expect(response.problemType == "urn:shelfmark:problem:not-found")
            }
            #expect(try await client.send(.patch, "/api/v1/books/nope", json: #"{"title":"X"}"#).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/books/7d2c1a0e-0000-4000-8000-000000000000").status == .notFound)
        }
    }

    @Test func queryParametersAreValidated() async throws {
        try await withAPI { client in
            for uri in [
                "/api/v1/books?limit=0", "/api/v1/books?limit=101", "/api/v1/books?offset=-1", "/api/v1/books?sort=bogus",
                "/api/v1/books?limit=abc",
            ] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.problemType != nil, "\(uri)")
            }
        }
    }

    @Test func clearingNeedsAnExplicitConfirmation() async throws {
        try await withAPI { client in
            _ = try await client.send(.post, "/api/v1/books", json: dune)
            #expect(try await client.send(.delete, "/api/v1/books").status == .badRequest)
            #expect(try await client.send(.delete, "/api/v1/books?confirm=false").status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/books").object["total"] as? Int == 1)
            let cleared = try await client.send(.delete, "/api/v1/books?confirm=true")
            #expect(cleared.status == .ok)
            #expect((try cleared.object["withdrawn"] as? [String])?.count == 1)
            #expect(try await client.send(.get, "/api/v1/books").object["total"] as? Int == 0)
        }
    }

    @Test func oversizedBodiesAreRefusedWith413() async throws {
        try await withAPI(maxBodyBytes: 1024) { client in
            let big = #"{"title":"T","authors":["A"],"description":"\#(String(repeating: "x", count: 4096))"}"#
            let response = try await client.send(.post, "/api/v1/books", json: big)
            #expect(response.status == .contentTooLarge)
            #expect(response.problemType == "urn:shelfmark:problem:too-large")
        }
    }

    @Test func healthAndContractAreServed() async throws {
        try await withAPI { client in
            let health = try await client.send(.get, "/api/v1/health")
            #expect(health.status == .ok)
            #expect(try health.object["status"] as? String == "ok")
            let contract = try await client.send(.get, "/openapi.yaml")
            #expect(contract.status == .ok)
            #expect(contract.text.hasPrefix("openapi: 3.1.0"))
            let unknown = try await client.send(.get, "/nowhere")
            #expect(unknown.status == .notFound && unknown.problemType != nil)
        }
    }

    @Test func aLiveServerAnswersOverTheNetwork() async throws {
        try await withAPI(mode: .live) { client in
            let created = try await client.send(.post, "/api/v1/books", json: dune)
            #expect(created.status == .created)
            let total = try await client.send(.get, "/api/v1/books").object["total"] as? Int
            #expect(total == 1)
        }
    }
}
