import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Catalogue order, fielded search, duplicate ISBNs and the search limit, through the real HTTP application.
@Suite("HTTP API: catalogue order and search")
struct HTTPCatalogueOrderTests {
    func add(_ api: APIClient, _ title: String, _ author: String, isbn: String? = nil, publisher: String? = nil) async throws {
        let isbn = isbn.map { #","isbn":"\#($0)""# } ?? ""
        let publisher = publisher.map { #","publisher":"\#($0)""# } ?? ""
        let response = try await api.send(
            .post, "/api/v1/books", json: #"{"title":"\#(title)","authors":["\#(author)"]\#(isbn)\#(publisher)}"#)
        #expect(response.status == .created, "\(response.text)")
    }

    func titles(_ api: APIClient, _ query: String) async throws -> [String] {
        let response = try await api.send(.get, "/api/v1/books?\(query)")
        #expect(response.status == .ok, "\(response.text)")
        return (try response.object["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test func sortingFilesAuthorsBySurnameAndTitlesWithoutTheirArticle() async throws {
        try await withAPI { api in
            try await add(api, "White Teeth", "Zadie Smith")
            try await add(api, "Zero", "Aaron Zimmer")
            try await add(api, "The Hobbit", "J. R. R. Tolkien")
            try await add(api, "Germinal", "Émile Zola")
            try await add(api, "An Apple", "emile zola")
            #expect(try await titles(api, "sort=author") == ["White Teeth", "The Hobbit", "Zero", "An Apple", "Germinal"])
            #expect(try await titles(api, "sort=title") == ["An Apple", "Germinal", "The Hobbit", "White Teeth", "Zero"])
        }
    }

    @Test func fieldedSearch() async throws {
        try await withAPI { api in
            try await add(api, "The Left Hand of Darkness", "Ursula K. Le Guin", isbn: "0-441-47812-3", publisher: "Ace")
            try await add(api, "Guinness Book", "Norris McWhirter", publisher: "Left Hand Press")
            #expect(try await titles(api, "q=guin&sort=title") == ["Guinness Book", "The Left Hand of Darkness"])
            #expect(try await titles(api, "q=author%3A%22le%20guin%22") == ["The Left Hand of Darkness"])
            #expect(try await titles(api, "q=publisher%3Aleft") == ["Guinness Book"])
            #expect(try await titles(api, "q=title%3Aleft%20isbn%3A978-0-441-47812-5") == ["The Left Hand of Darkness"])
            #expect(try await titles(api, "q=isbn%3A0441478123") == ["The Left Hand of Darkness"])
        }
    }

    @Test(
        "FTS5 syntax in q is text: never a 500",
        arguments: [
            "%22", "%22%22%22", "dune%2A", "%2A", "-dune", "NEAR(a%20b)", "a%20OR%20b", "NOT%20a", "(dune", "title%20%3A%20dune",
            "%7Btitle%7D%3Adune", "1%3A2%3A3", "%3A", "%5E", "dune%3B%20DROP%20TABLE%20events",
        ])
    func injection(q: String) async throws {
        try await withAPI { api in
            try await add(api, "Dune", "Frank Herbert")
            let response = try await api.send(.get, "/api/v1/books?q=\(q)")
            #expect(response.status == .ok, "\(q): \(response.text)")
        }
    }

    @Test(
        "a search that cannot be read is a 400 on q",
        arguments: ["auther%3Atolkien", "author%3A", "isbn%3A12345", "subject%3A%22sf%22", "a%3Ab%3Ac"])
    func unreadableSearch(q: String) async throws {
        try await withAPI { api in
            let response = try await api.send(.get, "/api/v1/books?q=\(q)")
            #expect(response.status == .badRequest && response.problemType == "urn:shelfmark:problem:validation", "\(response.text)")
            let fields = (try response.object["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["q"], "\(response.text)")
        }
    }

    @Test func aSecondRecordOfAnISBNIsA409UnlessAskedFor() async throws {
        try await withAPI { api in
            let dune = #"{"title":"Dune","authors":["Frank Herbert"],"isbn":"0-441-17271-7"}"#
            let first = try await api.send(.post, "/api/v1/books", json: dune)
            let id = try #require(try first.object["id"] as? String)
            let again = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune 2","authors":["F"],"isbn":"9780441172719"}"#)
            #expect(again.status == .conflict && again.problemType == "urn:shelfmark:problem:conflict")
            let detail = try again.object["detail"] as? String ?? ""
            #expect(detail.contains("Dune") && detail.contains(id), "\(detail)")
            #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 1)

            let allowed = try await api.send(
                .post, "/api/v1/books", json: #"{"title":"Dune 2","authors":["F"],"isbn":"9780441172719","allowDuplicate":true}"#)
            #expect(allowed.status == .created, "\(allowed.text)")
            let second = try #require(try allowed.object["id"] as? String)

            let other = try await api.send(.post, "/api/v1/books", json: #"{"title":"Other","authors":["F"]}"#)
            let otherID = try #require(try other.object["id"] as? String)
            let edit = try await api.send(.patch, "/api/v1/books/\(otherID)", json: #"{"isbn":"0441172717"}"#)
            #expect(edit.status == .conflict, "\(edit.text)")
            let forced = try await api.send(.patch, "/api/v1/books/\(otherID)", json: #"{"isbn":"0441172717","allowDuplicate":true}"#)
            #expect(forced.status == .ok, "\(forced.text)")

            for book in [id, second, otherID] { #expect(try await api.send(.delete, "/api/v1/books/\(book)").status == .noContent) }
            #expect(try await api.send(.post, "/api/v1/books", json: dune).status == .created)
        }
    }

    @Test func importingAnISBNInTheCatalogueIsA409UnlessAskedFor() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                let fox = #"{"title":"Fantastic Mr Fox","authors":["Roald Dahl"],"isbn":"0-14-032872-6"}"#
                #expect(try await api.send(.post, "/api/v1/books", json: fox).status == .created)
                let refused = try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"]}"#)
                #expect(refused.status == .conflict && refused.text.contains("Fantastic Mr Fox"), "\(refused.text)")
                let allowed = try await api.send(
                    .post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"],"allowDuplicate":true}"#)
                #expect(allowed.status == .created, "\(allowed.text)")
            }
        }
    }

    @Test func searchAnswersAtMostTheLimitWhateverOpenLibrarySends() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                // The recording holds 100 works, whatever limit is asked for.
                for _ in 1...2 {  // the second answer comes from the cache
                    let page = try await api.send(.get, "/api/v1/search?title=lord%20of%20the%20rings&limit=3", token: .none)
                    #expect(page.status == .ok, "\(page.text)")
                    let body = try page.object
                    #expect((body["items"] as? [Any])?.count == 3 && body["limit"] as? Int == 3 && body["nextOffset"] as? Int == 3)
                }
            }
        }
    }

    @Test func openLibraryGetsTheFieldsInOneSpelling() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                let page = try await api.send(.get, "/api/v1/search?q=ISBN%3A978-0-06-302143-3", token: .none)
                #expect(page.status == .ok, "\(page.text)")
                #expect(
                    fake.requests.withLock { $0 }.contains { $0.contains("q=isbn:9780063021433") || $0.contains("q=isbn%3A9780063021433") })
                let bad = try await api.send(.get, "/api/v1/search?q=isbn%3A123", token: .none)
                #expect(bad.status == .badRequest, "\(bad.text)")
            }
        }
    }
}
