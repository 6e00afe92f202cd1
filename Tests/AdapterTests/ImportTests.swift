import Application
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Wording

@testable import OpenLibrary

@Suite("Importing from Open Library into the catalogue")
struct ImportTests {
    @Test func byISBNWithTheLibrariansOverrides() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/ok"; $0.coversURL = "https://covers.example"
            }) { api in
                // The recordings hold the edition but neither its work nor its author: Open Library gave no author.
                let noAuthor = try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"0-14-032872-6"}"#)
                #expect(noAuthor.status == .badRequest && noAuthor.text.contains("authors: is required"), "\(noAuthor.text)")
                #expect(fake.requests.withLock { $0 }.contains { $0.hasSuffix("/works/OL45883W.json") })
                #expect(fake.requests.withLock { $0 }.contains { $0.hasSuffix("/authors/OL34184A.json") })

                let created = try await api.send(
                    .post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["Roald Dahl"],"copies":2}"#)
                #expect(created.status == .created, "\(created.text)")
                let book = try created.object
                #expect(book["title"] as? String == "Fantastic Mr. Fox" && book["publisher"] as? String == "Puffin")
                #expect(book["isbn"] as? String == "9780140328721" && book["copies"] as? Int == 2)
                #expect(book["coverUrl"] as? String == "https://covers.example/b/id/8739161-L.jpg")
                #expect(book["authors"] as? [String] == ["Roald Dahl"])
            }
        }
    }

    @Test func byWorkKeyWithTitleDescriptionAndCover() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/ok"; $0.coversURL = "https://covers.example"
            }) { api in
                let created = try await api.send(
                    .post, "/api/v1/books/import", json: #"{"workKey":"/works/OL20126932W","authors":["Stephen King"]}"#)
                #expect(created.status == .created, "\(created.text)")
                let book = try created.object
                #expect(book["title"] as? String == "The Institute")
                #expect((book["description"] as? String)?.hasPrefix("In the middle of the night") == true)
                #expect(book["coverUrl"] as? String == "https://covers.example/b/id/10712767-L.jpg")
            }
        }
    }

    @Test func failuresAddNothing() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: { $0.openLibraryURL = base + "/error" }) { api in
                let down = try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726","authors":["R"]}"#)
                #expect(down.status == .serviceUnavailable)
                #expect(try await api.send(.get, "/api/v1/books").object["total"] as? Int == 0)
            }
            try await withAPI(configure: { $0.openLibraryURL = base + "/ok" }) { api in
                #expect(try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"978-0-306-40615-7"}"#).status == .notFound)
                #expect(try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"123"}"#).status == .badRequest)
                #expect(try await api.send(.post, "/api/v1/books/import", json: #"{}"#).status == .badRequest)
                let member = try await api.signUpMember("ada@example.org")
                #expect(
                    try await api.send(.post, "/api/v1/books/import", json: #"{"isbn":"0140328726"}"#, token: member).status == .forbidden)
            }
        }
    }

    @Test func fromTheCLI() async throws {
        let db = TemporaryDatabase()
        try await FakeUpstreams().run { base in
            let imported = try await shelfmark(
                ["book", "import", "--isbn", "0140328726", "--author", "Roald Dahl", "--copies", "3", "--openlibrary-url", base + "/ok"],
                database: db.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(
                imported.stdout.contains("Fantastic Mr. Fox") && imported.stdout.contains("Puffin")
                    && imported.stdout.contains("Copies      3"))
            let down = try await shelfmark(
                ["book", "import", "--isbn", "0140328726", "--allow-duplicate", "--author", "R", "--openlibrary-url", base + "/error"],
                database: db.path)
            #expect(down.status == 4 && down.stderr.contains(Wording.english.text(.upstreamUnavailable(.openLibrary))), "\(down.stderr)")
            // The catalogue has this one: said so (exit 1) without asking Open Library, down or not.
            let again = try await shelfmark(
                ["book", "import", "--isbn", "0140328726", "--author", "R", "--openlibrary-url", base + "/error"], database: db.path)
            #expect(again.status == 1 && again.stderr.contains("already in the catalogue as “Fantastic Mr. Fox”"), "\(again.stderr)")
        }
    }
}

@Suite("Open Library record parsing")
struct OpenLibraryRecordTests {
    @Test(
        "author records give a name",
        arguments: [
            ("openlibrary-works/authors-OL23919A-rowling.json", "J. K. Rowling"),
            ("openlibrary-works/authors-OL4452558A-paulsen.json", "Gary Paulsen"),
        ])
    func authors(file: String, name: String) throws {
        let record = try JSONDecoder().decode(OpenLibraryLookup.Record.self, from: try Fixtures.data(file))
        #expect(record.name == name)
    }

    @Test func aMinimalWorkImportsItsTitle() async throws {
        try await FakeUpstreams().run { base in
            var settings = OpenLibrarySettings()
            settings.baseURL = base + "/ok"
            // Not a deadline test: a loaded CI machine is slow, not wrong.
            settings.deadline = .seconds(60)
            settings.timeout = .seconds(30)
            let found = try await OpenLibraryLookup(settings: settings).book(workKey: "OL3616800W")
            #expect(found?.title == "Selected aspects of Montana water law" && found?.authors == [] && found?.description == nil)
            #expect(try await OpenLibraryLookup(settings: settings).book(workKey: "OL1W") == nil)
        }
    }
}
