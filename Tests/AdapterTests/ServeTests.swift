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
        let log = db.folder.appendingPathComponent("serve.log")
        try FileManager.default.createDirectory(at: db.folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = try shelfmarkExecutable()
        process.arguments = ["serve", "--port", "0", "--db", db.path]
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let port = try await servingPort(in: log)
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/api/v1/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"ok\""))

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOf: log, encoding: .utf8).contains("database closed"))
    }
}
