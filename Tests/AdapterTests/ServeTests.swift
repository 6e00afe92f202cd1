import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("serve and the CLI share one library")
struct ServeTests {
    @Test func booksAddedOverHTTPAreListedByTheCLIAndViceVersa() async throws {
        let db = TemporaryDatabase()
        try FileManager.default.createDirectory(at: db.folder.appendingPathComponent("nested"), withIntermediateDirectories: true)
        let added = try await shelfmark(["book", "add", "--title", "From the CLI", "--author", "A"], database: db.path)
        #expect(added.status == 0, "\(added.stderr)")
        try await withAPI(databasePath: db.path) { client in
            let created = try await client.send(.post, "/api/v1/books", json: #"{"title":"From HTTP","authors":["B"]}"#)
            #expect(created.status == .created)
            let titles = try await client.send(.get, "/api/v1/books?sort=title").text
            #expect(titles.contains("From the CLI"))
        }
        let list = try await shelfmark(["book", "list", "--sort", "title"], database: db.path)
        #expect(list.stdout.contains("From HTTP") && list.stdout.contains("From the CLI"))
    }

    @Test func serveStartsOnAnEmptyDatabaseAndStopsGracefullyOnSIGTERM() async throws {
        let db = TemporaryDatabase()
        let server = try await ServingShelfmark.start(database: db.path, log: db.folder.appendingPathComponent("serve.log"))
        defer { server.process.terminate() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/api/v1/health")!
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"ok\""))

        await #expect(server.stop() == 0)  // SIGTERM
        let log = server.log
        #expect(try String(contentsOf: log, encoding: .utf8).contains("database closed"))
    }
}
