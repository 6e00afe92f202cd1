import Application
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Wording

@Suite("Bookmarks over HTTP and the CLI")
struct BookmarkTests {
    @Test func bookmarkWorksAndBooksPrivatelyAndIdempotently() async throws {
        try await FakeUpstreams().run { base in
            try await withAPI(configure: {
                $0.openLibraryURL = base + "/ok"; $0.coversURL = "https://covers.example"
            }) { api in
                let ada = try await api.signUpMember("ada@example.org")
                let bob = try await api.signUpMember("bob@example.org")
                let lotr = try await api.send(.put, "/api/v1/me/bookmarks/OL27448W", token: ada)
                #expect(lotr.status == .ok, "\(lotr.text)")
                #expect(try await api.send(.put, "/api/v1/me/bookmarks//works/OL27448W", token: ada).status != .internalServerError)
                _ = try await api.send(.put, "/api/v1/me/bookmarks/OL27448W", token: ada)
                let book = try #require(
                    try await api.send(.post, "/api/v1/books", json: #"{"title":"A Catalogue Book","authors":["Z"]}"#).object["id"]
                        as? String)
                #expect(try await api.send(.put, "/api/v1/me/bookmarks/books/\(book)", token: ada).status == .ok)

                let newest = try #require(try await api.send(.get, "/api/v1/me/bookmarks", token: ada).object["items"] as? [[String: Any]])
                #expect(newest.map { $0["title"] as? String } == ["A Catalogue Book", "The Lord of the Rings"])
                #expect(newest[1]["firstPublishYear"] as? Int == 1954)
                #expect((newest[1]["covers"] as? [String: Any])?["medium"] as? String == "https://covers.example/b/id/9255566-M.jpg")
                #expect(newest[0]["bookId"] as? String == book)
                let byTitle = try #require(
                    try await api.send(.get, "/api/v1/me/bookmarks?sort=title", token: ada).object["items"] as? [[String: Any]])
                #expect(byTitle.map { $0["title"] as? String } == ["A Catalogue Book", "The Lord of the Rings"])

                #expect((try await api.send(.get, "/api/v1/me/bookmarks", token: bob).object["items"] as? [Any])?.isEmpty == true)
                #expect(try await api.send(.get, "/api/v1/me/bookmarks", token: .none).status == .unauthorized)
                #expect(try await api.send(.delete, "/api/v1/me/bookmarks/OL27448W", token: ada).status == .noContent)
                #expect(try await api.send(.delete, "/api/v1/me/bookmarks/OL27448W", token: ada).status == .noContent)
                #expect((try await api.send(.get, "/api/v1/me/bookmarks", token: ada).object["items"] as? [Any])?.count == 1)

                #expect(try await api.send(.put, "/api/v1/me/bookmarks/not-a-key", token: ada).status == .badRequest)
                #expect(try await api.send(.put, "/api/v1/me/bookmarks/OL999999999W", token: ada).status == .notFound)
            }
        }
    }

    @Test func cliBookmarks() async throws {
        let db = TemporaryDatabase()
        try await FakeUpstreams().run { base in
            #expect(
                try await shelfmark(
                    ["signup", "--login", "--email", "ada@example.org", "--country", "FR"], database: db.path, stdin: "Member-Pass1\n"
                ).status == 0)
            let added = try await shelfmark(["bookmark", "add", "OL82563W", "--openlibrary-url", base + "/ok"], database: db.path)
            #expect(added.status == 0 && added.stdout.contains("Harry Potter and the Philosopher's Stone"), "\(added.stderr)")
            #expect(try await shelfmark(["bookmark", "list"], database: db.path).stdout.contains("OL82563W"))
            #expect(try await shelfmark(["bookmark", "remove", "OL82563W"], database: db.path).stdout.contains("Removed."))
            #expect(try await shelfmark(["bookmark", "list"], database: db.path).stdout.contains("No bookmarks."))
            let down = try await shelfmark(["bookmark", "add", "OL82537W", "--openlibrary-url", base + "/error"], database: db.path)
            #expect(down.status != 0 && down.stderr.contains(Wording.english.text(.upstreamUnavailable(.openLibrary))), "\(down.stderr)")
        }
    }
}
