import Foundation
import Logging
import PostgresStore
import PostgresTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Several `shelfmark serve` processes on one PostgreSQL database, and a SQLite library moved
/// there with `shelfmark copy`, all through the real binary. Run when `SHELFMARK_TEST_POSTGRES_URL`
/// names a server.
@Suite(
    "Shelfmark on PostgreSQL: two servers, one library", .serialized,
    .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresTestServer.skipped)))
struct PostgresServeTests {
    /// A library network: one new database, a data folder per server, one chain key file they share.
    struct Network {
        let url: String
        let folder: TemporaryDatabase
        var environment: [String: String] {
            [
                "SHELFMARK_DATABASE_URL": url, "SHELFMARK_CHAIN_KEY": folder.folder.appendingPathComponent("chain.key").path,
                "SHELFMARK_BCRYPT_COST": "4", "SHELFMARK_AUTH_ATTEMPTS": "1000000", "SHELFMARK_SEARCH_RATE": "1000000",
                "SHELFMARK_WRITE_RATE": "1000000", "SHELFMARK_ADDRESS_SEARCH_RATE": "1000000", "SHELFMARK_ADDRESS_WRITE_RATE": "1000000",
            ]
        }

        static func new() async throws -> Network {
            Network(url: try await PostgresTestServer.freshDatabase(), folder: TemporaryDatabase())
        }

        /// The CLI on this library.
        func cli(_ arguments: [String], stdin: String? = nil) async throws -> CLIResult {
            try await shelfmark(arguments, database: folder.path, stdin: stdin, environment: environment)
        }

        /// A server of this library, its data folder its own.
        func serve(_ name: String) async throws -> ServingShelfmark {
            let data = folder.folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            return try await ServingShelfmark.start(
                database: data.appendingPathComponent("library.sqlite").path, log: data.appendingPathComponent("serve.log"),
                environment: environment)
        }

        /// The librarian, made on the command line, and a session of theirs on `server`.
        func librarian(on server: ServingShelfmark) async throws -> String {
            let added = try await cli(["user", "add", "--email", "lib@example.org", "--role", "librarian"], stdin: "Librarian-Pass1\n")
            #expect(added.status == 0, "\(added.stderr)")
            let (status, body) = try await call(
                server, "POST", "/api/v1/sessions", json: #"{"email":"lib@example.org","password":"Librarian-Pass1"}"#)
            #expect(status == 201 || status == 200, "\(body)")
            return try #require(body["token"] as? String)
        }
    }

    /// One HTTP request to a server; its status and JSON object (empty when the body is none).
    static func call(_ server: ServingShelfmark, _ method: String, _ path: String, json: String? = nil, token: String? = nil)
        async throws -> (Int, [String: Any])
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = 60
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }

    static func call(_ server: ServingShelfmark, _ method: String, _ path: String, json: String? = nil, token: String? = nil)
        async throws -> Int
    {
        let (status, _): (Int, [String: Any]) = try await call(server, method, path, json: json, token: token)
        return status
    }

    @Test("a book added on one server is read on the other at once; 200 members racing through both for 3 copies get 3 loans")
    func twoServersOneLibrary() async throws {
        let network = try await Network.new()
        let a = try await network.serve("a")
        defer { _ = a.stop() }
        let b = try await network.serve("b")
        defer { _ = b.stop() }
        let librarian = try await network.librarian(on: a)
        let (added, book) = try await Self.call(
            a, "POST", "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"],"copies":3}"#, token: librarian)
        #expect(added == 201, "\(book)")
        let id = try #require(book["id"] as? String)
        let (read, onB) = try await Self.call(b, "GET", "/api/v1/books/\(id)", token: librarian)
        #expect(read == 200 && onB["title"] as? String == "Dune", "\(onB)")

        let members = try await withThrowingTaskGroup(of: String.self) { group in
            for n in 0..<200 {
                group.addTask {
                    let server = n.isMultiple(of: 2) ? a : b
                    let (status, body) = try await Self.call(
                        server, "POST", "/api/v1/users", json: #"{"email":"m\#(n)@example.org","password":"Member-Pass1","country":"FR"}"#)
                    #expect(status == 201, "\(body)")
                    return try #require(body["token"] as? String)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let borrowed = try await withThrowingTaskGroup(of: Int.self) { group in
            for (n, member) in members.enumerated() {
                group.addTask {
                    let status: Int = try await Self.call(
                        n.isMultiple(of: 2) ? b : a, "POST", "/api/v1/loans", json: #"{"bookIds":["\#(id)"]}"#, token: member)
                    #expect([201, 409, 422].contains(status), "a borrow answered \(status)")
                    return status == 201 ? 1 : 0
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(borrowed == 3)
        let (_, afterward) = try await Self.call(a, "GET", "/api/v1/books/\(id)", token: librarian)
        #expect(afterward["available"] as? Int == 0, "\(afterward)")
        let verified = try await network.cli(["audit", "verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test("one server killed with SIGKILL under load: every acknowledged book is kept, the other serves on, the log verifies")
    func killOneUnderLoad() async throws {
        let network = try await Network.new()
        let a = try await network.serve("a")
        defer { _ = a.stop() }
        let b = try await network.serve("b")
        defer { _ = b.stop() }
        let librarian = try await network.librarian(on: b)
        let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var ids: [String] = []
                    for n in 0..<30 {
                        let server = writer.isMultiple(of: 2) ? a : b
                        guard
                            let (status, body) = try? await Self.call(
                                server, "POST", "/api/v1/books", json: #"{"title":"Book \#(writer)-\#(n)","authors":["A"],"copies":1}"#,
                                token: librarian)
                        else { continue }  // the killed server's connection dropped: not acknowledged
                        if status == 201, let id = body["id"] as? String { ids.append(id) }
                    }
                    return ids
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(600))
                kill(a.process.pid, SIGKILL)
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let killed = a.process
        #expect(await offPool { killed.wait() } == 128 + SIGKILL)
        #expect(acknowledged.count >= 120, "the surviving server's writers got \(acknowledged.count) books in")
        for id in acknowledged {
            let status: Int = try await Self.call(b, "GET", "/api/v1/books/\(id)", token: librarian)
            #expect(status == 200, "book \(id) was acknowledged and is gone")
        }
        let verified = try await network.cli(["audit", "verify"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test("a SQLite library copied into PostgreSQL is served there as it was, and verifies on both sides; wrong targets are refused")
    func copyIntoPostgres() async throws {
        let network = try await Network.new()
        let sqlite = TemporaryDatabase()
        let local = ["SHELFMARK_BCRYPT_COST": "4", "SHELFMARK_CHAIN_KEY": sqlite.path + ".key"]
        #expect(
            try await shelfmark(
                ["user", "add", "--email", "lib@example.org", "--role", "librarian"], database: sqlite.path, stdin: "Librarian-Pass1\n",
                environment: local
            )
            .status == 0)
        for title in ["Dune", "Emma", "Ulysses"] {
            #expect(
                try await shelfmark(["book", "add", "--title", title, "--author", "A"], database: sqlite.path, environment: local).status
                    == 0)
        }
        // Found by an outside test: a database a first open had prepared (here `migrate`, with a key
        // file of its own) was refused by the copy, for the key that open had recorded.
        let elsewhere = network.folder.folder.appendingPathComponent("first-open.key").path
        var prepared = network.environment
        prepared["SHELFMARK_CHAIN_KEY"] = elsewhere
        let prepare = try await shelfmark(["migrate"], database: network.folder.path, environment: prepared)
        #expect(prepare.status == 0 && FileManager.default.fileExists(atPath: elsewhere), "\(prepare.stderr)")
        let copied = try await network.cli(["copy", "--from", sqlite.path, "--to", network.url])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.hasPrefix("Copied 7 events from \(sqlite.path) into \(network.url)"), "\(copied.stdout)")
        #expect(copied.stdout.contains("every server of this library needs a copy of it"), "\(copied.stdout)")
        let listed = try await network.cli(["book", "list"])
        #expect(["Dune", "Emma", "Ulysses"].allSatisfy(listed.stdout.contains), "\(listed.stdout)")
        let onPostgres = try await network.cli(["audit", "verify"])
        #expect(onPostgres.status == 0, "\(onPostgres.stdout)\(onPostgres.stderr)")
        #expect(try await shelfmark(["audit", "verify"], database: sqlite.path, environment: local).status == 0)
        let loggedIn = try await network.cli(["login", "--email", "lib@example.org"], stdin: "Librarian-Pass1\n")
        #expect(loggedIn.status == 0, "the librarian's account came along: \(loggedIn.stderr)")

        let again = try await network.cli(["copy", "--from", sqlite.path, "--to", network.url])
        #expect(again.status != 0)
        #expect(again.stderr.contains("--to already holds a library (9 events): copy into an empty database"), "\(again.stderr)")
        // Found by an outside walk: two copies into one empty database at once each saw it empty and
        // took their own source's secrets. The second is refused while the first holds the copy lock.
        let empty = try await PostgresTestServer.freshDatabase()
        var second = network.environment
        second["SHELFMARK_CHAIN_KEY"] = network.folder.folder.appendingPathComponent("second.key").path
        let underWay = try await PostgresAddress(empty).whileCopying(logger: Logger(label: "first copy")) {
            try await shelfmark(["copy", "--from", sqlite.path, "--to", empty], database: sqlite.path, environment: second)
        }
        #expect(
            underWay.status == 2
                && underWay.stderr.contains("--to is being copied into by another shelfmark copy right now: nothing was copied"),
            "\(underWay.stderr)")
        #expect(!FileManager.default.fileExists(atPath: second["SHELFMARK_CHAIN_KEY"]!), "the refused copy wrote its key file")
        let after = try await shelfmark(["copy", "--from", sqlite.path, "--to", empty], database: sqlite.path, environment: second)
        #expect(after.status == 0, "once the first copy let go, the database takes a copy: \(after.stderr)")
        let nonsense = try await network.cli(["copy", "--from", sqlite.path, "--to", "mysql://somewhere/library"])
        #expect(nonsense.status == 2 && nonsense.stderr.contains("--to must be a PostgreSQL address"), "\(nonsense.stderr)")
        let missing = try await network.cli(["copy", "--from", sqlite.path + ".nothing", "--to", network.url])
        #expect(missing.status != 0 && missing.stderr.contains(".nothing"), "\(missing.stderr)")
        // The log's other paths on PostgreSQL: a backup and a replay are SQLite libraries that verify on their
        // own; time travel; export.
        let backup = network.folder.folder.appendingPathComponent("backup.sqlite").path
        let backedUp = try await network.cli(["backup", "--to", backup])
        #expect(backedUp.status == 0 && FileManager.default.fileExists(atPath: backup + ".key"), "\(backedUp.stderr)")
        #expect(
            try await shelfmark(["audit", "verify"], database: backup, environment: ["SHELFMARK_CHAIN_KEY": backup + ".key"]).status == 0)
        let replayed = network.folder.folder.appendingPathComponent("replayed.sqlite").path
        await #expect(try network.cli(["audit", "replay", "--until", "5", "--into", replayed]).stdout.contains("Replayed 5 events"))
        let future = Date().addingTimeInterval(3600).formatted(.iso8601)
        await #expect(try network.cli(["audit", "as-of", future, "books"]).stdout.contains("Ulysses"))
        await #expect(try network.cli(["audit", "as-of", "2000-01-01T00:00:00Z", "books"]).stdout.contains("No books."))
        let exported = try await network.cli(["audit", "export"])
        #expect(exported.status == 0 && exported.stdout.split(separator: "\n").count == 9, "\(exported.stderr)")

        let restored = try await network.cli(["restore", "--from", sqlite.path])
        #expect(
            restored.status == 2 && restored.stderr.contains("names a PostgreSQL library, and restore replaces a SQLite file"),
            "\(restored.stderr)")
        let migrated = try await network.cli(["migrate"])
        #expect(migrated.status == 0 && migrated.stdout.contains("is up to date: nothing to migrate"), "\(migrated.stdout)")
    }
}
