import Application
import Composition
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 21: one access line per request, a request id answered in `X-Request-ID` and written
/// into the events' correlation id, so a complaint can be traced from the log to the events.
@Suite("Access log and request ids")
struct AccessLogTests {
    @Test func everyAnswerHasAnIDAndOneLineNamingItsRouteTemplateAndCaller() async throws {
        let log = CapturedLog()
        try await withAPI(logger: log.logger) { api in
            let created = try await api.send(.post, "/api/v1/books", json: #"{"title":"Dune","authors":["Frank Herbert"]}"#)
            #expect(created.status == .created)
            let id = try #require(try created.object["id"] as? String)
            let shown = try await api.send(.get, "/api/v1/books/\(id)")
            let missing = try await api.send(.get, "/api/v1/nowhere/\(id)", token: .none)
            let page = try await api.client.execute(uri: "/", method: .get, headers: [.accept: "text/html"])
            for response in [created, shown, missing, page] {
                let header = try #require(response.headers[.requestID], "\(response.status)")
                #expect(UUID(uuidString: header) != nil && header == header.lowercased())
            }
            let lines = log.lines(message: "request")
            #expect(lines.count == 4, "\(lines)")
            let show = try #require(lines.first { $0["request_id"] == shown.headers[.requestID] })
            #expect(show["method"] == "GET" && show["status"] == "200")
            #expect(show["route"] == "/api/v1/books/{id}" || show["route"] == "/api/v1/books/:id", "\(show)")
            #expect(show["principal"]?.hasPrefix("user:") == true && show["duration_ms"].flatMap(Double.init) != nil)
            let unknown = try #require(lines.first { $0["request_id"] == missing.headers[.requestID] })
            #expect(unknown["status"] == "404" && unknown["principal"] == "anonymous")
            #expect(unknown["route"]?.contains(id) == false, "a raw path is never a route: \(unknown)")
            let home = try #require(lines.first { $0["request_id"] == page.headers[.requestID] })
            #expect(home["route"] == "/" && home["status"] == "200")
        }
    }

    @Test func anOutsideServicesFailureLoggedDuringARequestNamesTheRequest() async throws {
        let log = CapturedLog()
        try await withAPI(
            configure: {
                $0.openLibraryURL = "http://127.0.0.1:9"; $0.openLibraryDeadline = 1
            }, logger: log.logger
        ) { api in
            let search = try await api.send(.get, "/api/v1/search?q=dune", token: .none)
            #expect(search.status == .serviceUnavailable)
            let id = try #require(search.headers[.requestID])
            let others = log.all.filter { $0["message"] != "request" && $0["level"] != "info" }
            #expect(!others.isEmpty && others.allSatisfy { $0["request_id"] == id }, "\(others)")
        }
    }

    @Test func theLogHoldsNoPasswordTokenEmailOrQuery() async throws {
        let log = CapturedLog()
        try await withAPI(logger: log.logger) { api in
            let token = try await api.signUpMember("secret.reader@example.org", password: "Hidden-Pass1")
            let login = try await api.send(
                .post, "/api/v1/sessions", json: #"{"email":"secret.reader@example.org","password":"Hidden-Pass1"}"#, token: .none)
            #expect(login.status == .created)
            _ = try await api.send(.get, "/api/v1/users/secret.reader@example.org")
            _ = try await api.send(.get, "/api/v1/books?q=zanzibarique+words", token: token)
            _ = try await api.send(.get, "/api/v1/books", token: "not-a-real-token")
        }
        let text = log.text
        #expect(log.lines(message: "request").count == 5)
        for secret in ["secret.reader", "Hidden-Pass1", "zanzibarique", "not-a-real-token", "Bearer"] {
            #expect(!text.contains(secret), "\(secret) in the log:\n\(text)")
        }
    }

    @Test func aTrustedProxysRequestIDIsTheCorrelationIDOfTheEventsTheRequestRecords() async throws {
        let given = UUID().uuidString
        let log = CapturedLog()
        try await withAPI(mode: .live, configure: { $0.trustedProxies = ["127.0.0.1"] }, logger: log.logger) { api in
            var headers: HTTPFields = [.authorization: "Bearer \(api.librarianToken)", .contentType: "application/json", .requestID: given]
            let created = try await api.client.execute(
                uri: "/api/v1/books", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"title":"Traced","authors":["A. Writer"]}"#))
            #expect(created.status == .created)
            #expect(created.headers[.requestID] == given.lowercased())
            let book = try #require(try created.object["id"] as? String)
            let history = try await api.send(.get, "/api/v1/audit/history?book=\(book)")
            let entries = try #require(try history.object["items"] as? [[String: Any]])
            #expect(entries.count == 1 && entries.allSatisfy { $0["correlationId"] as? String == given.lowercased() }, "\(history.text)")

            headers[.requestID] = "not a uuid\u{7}"
            let other = try await api.client.execute(
                uri: "/api/v1/books", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"title":"Other","authors":["A. Writer"]}"#))
            let chosen = try #require(other.headers[.requestID])
            #expect(UUID(uuidString: chosen) != nil)
            let line = try #require(log.lines(message: "request").first { $0["request_id"] == chosen })
            #expect(line["proxy_request_id"] == "notauuid", "kept for the operator, visible ASCII only: \(line)")
        }
    }

    @Test func anyoneElsesRequestIDIsNotTaken() async throws {
        let given = UUID().uuidString.lowercased()
        try await withAPI(mode: .live) { api in
            let response = try await api.client.execute(
                uri: "/api/v1/books", method: .post,
                headers: [.authorization: "Bearer \(api.librarianToken)", .contentType: "application/json", .requestID: given],
                body: ByteBuffer(string: #"{"title":"Untraced","authors":["A. Writer"]}"#))
            #expect(response.status == .created)
            let chosen = try #require(response.headers[.requestID])
            #expect(chosen != given && UUID(uuidString: chosen) != nil)
            let book = try #require(try response.object["id"] as? String)
            let history = try await api.send(.get, "/api/v1/audit/history?book=\(book)")
            let entries = try #require(try history.object["items"] as? [[String: Any]])
            #expect(entries.first?["correlationId"] as? String == chosen, "\(history.text)")
        }
    }

    @Test func aProlificLineNamesTheRouteNeverTheKey() async throws {
        let log = CapturedLog()
        let key = try await withProlific(logger: log.logger) { app async throws -> String in
            #expect(try await app.send(.get, "books").status == .ok)
            return app.key
        }
        let line = try #require(log.lines(message: "request").first)
        #expect(line["route"] == "/{key}/books" && line["principal"]?.hasPrefix("user:") == true, "\(line)")
        #expect(!log.text.contains(key))
    }
}

/// The real server's log, in either format.
@Suite("serve's log format")
struct ServeLogFormatTests {
    /// Serves one request (`GET /api/v1/books`) with `environment`; its request id and the log's lines.
    static func oneListing(environment: [String: String] = [:]) async throws -> (id: String, lines: [Substring]) {
        let db = TemporaryDatabase()
        let server = try await ServingShelfmark.start(
            database: db.path, log: db.folder.appendingPathComponent("serve.log"), environment: environment)
        defer { server.process.terminate() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/api/v1/books"))
        let (_, response) = try await URLSession.shared.data(from: url)
        let id = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Request-ID"))
        await #expect(server.stop() == 0)
        return (id, try String(contentsOf: server.log, encoding: .utf8).split(separator: "\n"))
    }

    @Test func serveWritesOneJSONObjectPerLineWhenAsked() async throws {
        let (id, lines) = try await Self.oneListing(environment: ["SHELFMARK_LOG_FORMAT": "json"])
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!lines.isEmpty && objects.count == lines.count, "every line is one JSON object: \(lines)")
        let request = try #require(objects.first { $0["message"] as? String == "request" })
        #expect(request["request_id"] as? String == id && request["route"] as? String != nil && request["status"] as? String == "200")
    }

    @Test func aClientsNewlineInAValueCannotWriteALineOfItsOwn() async throws {
        let db = TemporaryDatabase()
        let server = try await ServingShelfmark.start(database: db.path, log: db.folder.appendingPathComponent("serve.log"))
        defer { server.process.terminate() }
        let forged = "x%0A2026-11-25T18:00:00%2B0000%20error%20shelfmark:%20FORGED%1B%5B2K"
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/api/v1/books?sort=\(forged)"))
        let (_, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        await #expect(server.stop() == 0)
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(log.contains("FORGED") && log.contains("\\u{1B}"), "the value is logged, escaped: \(log)")
        #expect(!log.split(separator: "\n").contains { $0.contains("FORGED") && $0.hasPrefix("2026-11-25T18:00:00") }, "\(log)")
    }

    @Test func serveWritesTextLinesByDefault() async throws {
        let (id, lines) = try await Self.oneListing()
        let request = try #require(lines.first { $0.hasSuffix("] request") && $0.contains(" request_id=\(id) ") }, "\(lines)")
        #expect(request.contains(" info shelfmark: ") && request.contains(" route=/api/v1/books ") && request.contains(" status=200 "))
    }
}

/// JSON lines: each one object on one line, its fields as strings.
@Suite("JSON log lines")
struct JSONLogLineTests {
    @Test func aLineIsOneObjectWithItsFieldsAndControlCharactersEscaped() throws {
        let lines = Mutex<[String]>([])
        var logger = LogSettings(format: .json, level: .debug).logger(
            label: "shelfmark", to: LogStream { line in lines.withLock { $0.append(line) } })
        logger[metadataKey: "request_id"] = "abc"
        logger.info("two\nlines \"quoted\" \u{1}", metadata: ["status": "200", "message": "clash", "list": ["a", "b"]])
        logger.debug("kept at debug")
        logger.trace("below the level")
        let written = lines.withLock { $0 }
        #expect(written.count == 2 && written.allSatisfy { $0.hasSuffix("}\n") && $0.dropLast().contains("\n") == false })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "two\nlines \"quoted\" \u{1}")
        #expect(object["level"] as? String == "info" && object["label"] as? String == "shelfmark")
        #expect(object["status"] as? String == "200" && object["request_id"] as? String == "abc")
        #expect(object["_message"] as? String == "clash" && object["list"] as? [String] == ["a", "b"])
        let time = try #require(object["time"] as? String)
        #expect(time.hasSuffix("Z") && (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time)) != nil, "\(time)")
    }

    @Test func theFormatAndLevelAreCheckedOptionsOverVariables() throws {
        let fromEnvironment = try LogSettings.resolve(
            format: nil, level: nil, environment: ["SHELFMARK_LOG_FORMAT": "JSON", "LOG_LEVEL": "warning"])
        #expect(fromEnvironment == LogSettings(format: .json, level: .warning))
        let options = try LogSettings.resolve(format: "text", level: "debug", environment: ["SHELFMARK_LOG_FORMAT": "json"])
        #expect(options == LogSettings(format: .text, level: .debug))
        #expect(try LogSettings.resolve(format: "", level: nil, environment: ["SHELFMARK_LOG_FORMAT": ""]) == LogSettings())
        for (format, level, name) in [("yaml", nil, "--log-format"), (nil, "loud", "--log-level")] as [(String?, String?, String)] {
            #expect {
                _ = try LogSettings.resolve(format: format, level: level, environment: [:])
            } throws: { error in
                (error as? ConfigurationError)?.english.hasPrefix("\(name) must be one of") == true
            }
        }
    }
}

/// A logger whose lines the test reads back (JSON lines, parsed).
final class CapturedLog: Sendable {
    private let written = Mutex<[String]>([])

    var logger: Logger {
        var logger = LogSettings(format: .json, level: .info).logger(label: "shelfmark", to: LogStream { line in self.add(line) })
        logger.logLevel = .info
        return logger
    }

    private func add(_ line: String) { written.withLock { $0.append(line) } }

    var text: String { written.withLock { $0.joined() } }

    /// The lines with this message, each as its string fields.
    func lines(message: String) -> [[String: String]] { all.filter { $0["message"] == message } }

    /// Every line, as its string fields.
    var all: [[String: String]] {
        written.withLock { $0 }.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object.compactMapValues { $0 as? String }
        }
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-ID")!
}
