import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A browser for the web pages' handler tests: keeps its cookies as a browser does, reads the form
/// token of each page it loads and sends it with the next form, and follows no redirect by itself.
actor Browser {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    /// The form token of the last page loaded.
    private(set) var csrf: String?

    /// A browser with no cookies, or logged in with `session` (a token the API handed out).
    init(_ api: APIClient, session: String? = nil) {
        client = api.client
        if let session { cookies["shelfmark_session"] = session }
    }

    /// Loads a page.
    @discardableResult
    func get(_ path: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await send(.get, path, headers: headers, body: nil)
    }

    /// Submits a form with `fields`, adding the form token of the last page loaded unless `csrf` is given ("" sends none).
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)], csrf: String? = nil, headers: HTTPFields = [:]) async throws -> TestResponse {
        var all = fields
        let token = csrf ?? self.csrf ?? ""
        if !token.isEmpty { all.append(("csrf", token)) }
        var headers = headers
        if headers[.contentType] == nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        return try await send(.post, path, headers: headers, body: ByteBuffer(string: Self.encode(all)))
    }

    /// Loads the page a redirect points to.
    func follow(_ response: TestResponse) async throws -> TestResponse {
        let location = try #require(response.headers[.location], "no Location in a \(response.status.code)")
        return try await get(location)
    }

    /// Loads `page` for its form token, then submits `fields` to `path`.
    @discardableResult
    func submit(from page: String, to path: String, _ fields: [(String, String)]) async throws -> TestResponse {
        try await get(page)
        return try await post(path, fields)
    }

    func forget(cookie name: String) { cookies[name] = nil }
    func setCookie(_ name: String, _ value: String) { cookies[name] = value }

    private func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if headers[.accept] == nil { headers[.accept] = "text/html,application/xhtml+xml,*/*;q=0.8" }
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        for header in response.headers[values: .setCookie] {
            let pair = header.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0])
            if header.contains("Max-Age=0") || pair[1].isEmpty { cookies[name] = nil } else { cookies[name] = String(pair[1]) }
        }
        if let token = Self.formToken(in: response.text) { csrf = token }
        return response
    }

    static func formToken(in html: String) -> String? {
        guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    static func encode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }
        .joined(separator: "&")
    }
}

extension TestResponse {
    /// Whether the page holds `text`, as HTML says it (escaped).
    func shows(_ text: String) -> Bool { self.text.contains(text) }
}

extension APIClient {
    /// Signs up a member with a display name over HTTP and returns its token.
    func signUpMember(_ email: String, named name: String) async throws -> String {
        let body = #"{"email":"\#(email)","password":"Member-Pass1","displayName":"\#(name)","country":"FR"}"#
        let response = try await send(.post, "/api/v1/users", json: body, token: .none)
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.object["token"] as? String)
    }

    /// Adds a book as the librarian through the API and returns its id.
    func addBook(_ title: String, copies: Int = 1, author: String = "A. Writer") async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["title": title, "authors": [author], "copies": copies])
        let response = try await send(.post, "/api/v1/books", json: String(decoding: body, as: UTF8.self))
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.object["id"] as? String)
    }
}
