import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The recorded responses in `../shared/fixtures/` (beside the repository).
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static func data(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }

    /// IPinfo's recorded answers, by the `ip` each one is about.
    static func ipinfoAnswers() throws -> [String: Data] {
        let folder = root.appendingPathComponent("ipinfo")
        var answers: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            let data = try Data(contentsOf: file)
            if let ip = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["ip"] as? String { answers[ip] = data }
        }
        return answers
    }
}

/// A fake of REST Countries and IPinfo on loopback, serving the fixtures. The first path segment
/// picks its behaviour: `ok`, `garbage` (not JSON), `error` (500), `hang` (answers after 3 s),
/// `stall` (sends the head and a piece of the body at once, the rest after 3 s), `reset` (the
/// connection dropped in the middle of the answer), `switch` (whatever `switched` says now) or,
/// for IPinfo, `bogon` (the recorded bogon answer, whatever the address).
final class FakeUpstreams: Sendable {
    /// The behaviour of the `switch` path segment, changed while a server uses the fake.
    let switched = Mutex("ok")
    let requests = Mutex<[String]>([])
    let userAgents = Mutex<[String]>([])

    func router() throws -> Router<BasicRequestContext> {
        let countries = try Fixtures.data("restcountries/v3.1-all-full-250-countries-2024-12.json")
        let ipinfo = try Fixtures.ipinfoAnswers()
        let bogon = try Fixtures.data("ipinfo/bogon-private-192.168.1.199.json")
        let router = Router()
        router.get("/:mode/v3.1/all") { request, context in
            self.requests.withLock { $0.append(request.uri.description) }
            if request.uri.queryParameters["fields"] == nil {
                return Self.json(#"{"message":"'fields' query not specified","status":400}"#, status: .badRequest)
            }
            return try await Self.answer(self.mode(context), ok: countries)
        }
        let search = try Self.openLibrarySearchFixtures()
        router.get("/:mode/search.json") { request, context in
            self.requests.withLock { $0.append(request.uri.description) }
            self.userAgents.withLock { $0.append(request.headers[.userAgent] ?? "") }
            let p = request.uri.queryParameters
            let key = [p["title"], p["author"], p["q"]].compactMap { $0.map(String.init) }.joined(separator: "|").lowercased()
            let mode = self.mode(context)
            if key.hasPrefix("key:/works/"), mode == "ok" { return Self.json(try Self.workByKey(String(key.dropFirst(11)), in: search)) }
            switch mode {
            case "422": return Self.json(#"{"error":"query too short"}"#, status: .unprocessableContent)
            case "truncated": return Self.json(String(decoding: (search[key] ?? search[""]!).prefix(120), as: UTF8.self))
            case "missing": return Self.json(#"{"docs":[{"key":"/works/OL1W"},{"title":"no key"},{}]}"#)
            default: return try await Self.answer(mode, ok: search[key] ?? search[""]!)
            }
        }
        let records: [String: Data] = [
            "isbn/9780140328721": try Fixtures.data("openlibrary-works/isbn-0140328726-fantastic-mr-fox.json"),
            "works/OL20126932W": try Fixtures.data("openlibrary-works/works-OL20126932W-the-institute.json"),
            "works/OL3616800W": try Fixtures.data("openlibrary-works/works-OL3616800W-montana-water-law.json"),
            "authors/OL23919A": try Fixtures.data("openlibrary-works/authors-OL23919A-rowling.json"),
            "authors/OL4452558A": try Fixtures.data("openlibrary-works/authors-OL4452558A-paulsen.json"),
        ]
        for kind in ["isbn", "works", "authors"] {
            router.get("/:mode/\(kind)/:file") { request, context in
                self.requests.withLock { $0.append(request.uri.description) }
                let name = (context.parameters.get("file") ?? "").replacingOccurrences(of: ".json", with: "")
                let mode = self.mode(context)
                guard let record = records["\(kind)/\(name)"] else {
                    return Self.json(#"{"error":"notfound","key":"/\#(kind)/\#(name)"}"#, status: .notFound)
                }
                return try await Self.answer(mode, ok: record)
            }
        }
        router.get("/:mode/:ip/json") { request, context in
            self.requests.withLock { $0.append(request.uri.description) }
            let ip = context.parameters.get("ip") ?? ""
            if context.parameters.get("mode") == "bogon" { return Self.json(String(decoding: bogon, as: UTF8.self)) }
            guard let answer = ipinfo[ip] else { return Self.json(#"{"ip":"\#(ip)"}"#) }
            return try await Self.answer(self.mode(context), ok: answer)
        }
        return router
    }

    /// Recorded search answers by the query they answer (`title|author|q`, lower case).
    static func openLibrarySearchFixtures() throws -> [String: Data] {
        [
            "lord of the rings": try Fixtures.data("openlibrary-search/title-lord-of-the-rings-100docs-alldefaultfields.json"),
            "the institute|stephen king": try Fixtures.data("openlibrary-search/author-title-the-institute-modern-default-fields.json"),
            "isbn:9780063021433": try Fixtures.data("openlibrary-search/q-isbn-9780063021433-fields-editions-babel.json"),
            "harry potter": try Fixtures.data("openlibrary-search/q-harry-potter-limit2-fields-subset.json"),
            "": try Fixtures.data("openlibrary-search/no-params-numfound-0.json"),
        ]
    }

    /// A one-work answer cut out of the recordings (the doc with that key), as `q=key:/works/…` gives.
    static func workByKey(_ key: String, in recordings: [String: Data]) throws -> String {
        for data in recordings.values {
            let docs = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["docs"] as? [[String: Any]] ?? []
            if let doc = docs.first(where: { ($0["key"] as? String)?.lowercased() == "/works/" + key }) {
                let answer = try JSONSerialization.data(withJSONObject: ["numFound": 1, "docs": [doc]])
                return String(decoding: answer, as: UTF8.self)
            }
        }
        return #"{"numFound":0,"docs":[]}"#
    }

    private func mode(_ context: BasicRequestContext) -> String {
        let mode = context.parameters.get("mode") ?? "ok"
        return mode == "switch" ? switched.withLock { $0 } : mode
    }

    private static func answer(_ mode: String, ok: Data) async throws -> Response {
        switch mode {
        case "reset":
            // Promises the whole answer, sends a piece, then fails: the server drops the connection.
            return Response(
                status: .ok, headers: [.contentType: "application/json", .contentLength: "\(ok.count)"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(bytes: ok.prefix(64)))
                    throw CancellationError()
                })
        case "stall":
            return Response(
                status: .ok, headers: [.contentType: "application/json", .contentLength: "\(ok.count)"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(bytes: ok.prefix(64)))
                    try await Task.sleep(for: .seconds(3))
                    try await writer.write(ByteBuffer(bytes: ok.dropFirst(64)))
                    try await writer.finish(nil)
                })
        case "garbage": return json("<html>not json</html>")
        case "error": return json(#"{"error":"boom"}"#, status: .internalServerError)
        case "hang":
            try await Task.sleep(for: .seconds(3))
            return json(String(decoding: ok, as: UTF8.self))
        default: return json(String(decoding: ok, as: UTF8.self))
        }
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Runs `body` with the fake listening; passes its base URL (`http://127.0.0.1:PORT`).
    @discardableResult
    func run<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let app = Application(router: try router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in try await body("http://127.0.0.1:\(try #require(client.port))") }
    }
}
