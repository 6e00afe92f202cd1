import Application
import AsyncHTTPClient
import Foundation
import NIOCore

/// The live country list: REST Countries v3.1 `GET /v3.1/all?fields=name,cca2,translations`
/// (it answers 400 without `fields`), fetched once and kept in the local database.
public actor RESTCountriesDirectory: CountryDirectory {
    private let baseURL: String
    private let store: any CountryListStore
    private let client: HTTPClient
    private let timeout: TimeAmount
    private var cached: [Country]?

    public init(baseURL: String, store: any CountryListStore, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(5)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.store = store
        self.client = client
        self.timeout = timeout
    }

    public func all() async throws -> [Country] {
        if let cached { return cached }
        if let stored = try await store.load(), !stored.isEmpty {
            cached = stored
            return stored
        }
        let fetched = try await fetch()
        try await store.save(fetched)
        cached = fetched
        return fetched
    }

    public func country(_ code: String) async throws -> Country? {
        try await all().first { $0.code == code.uppercased() }
    }

    /// The list, asked within `timeout`, body included.
    private func fetch() async throws -> [Country] {
        let (client, url, timeout) = (client, "\(baseURL)/v3.1/all?fields=name,cca2,translations", timeout)
        let answer: (status: UInt, body: ByteBuffer)
        do {
            answer = try await withTimeLimit(.nanoseconds(timeout.nanoseconds)) {
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: timeout)
                return (response.status.code, try await response.body.collect(upTo: 8 << 20))
            }
        } catch {
            throw CountryListUnavailable(detail: "REST Countries did not answer: \(error)")
        }
        guard answer.status == 200 else { throw CountryListUnavailable(detail: "REST Countries answered HTTP \(answer.status)") }
        let entries: [Entry]
        do { entries = try JSONDecoder().decode([Entry].self, from: Data(answer.body.readableBytesView)) } catch {
            throw CountryListUnavailable(detail: "REST Countries sent something that is not a country list: \(error)")
        }
        let countries = entries.compactMap { entry -> Country? in
            guard entry.cca2.count == 2 else { return nil }
            return Country(code: entry.cca2, name: entry.name.common, frenchName: entry.translations?["fra"]?.common)
        }
        guard !countries.isEmpty else { throw CountryListUnavailable(detail: "REST Countries sent an empty country list") }
        return countries.sorted { $0.name < $1.name }
    }

    private struct Entry: Decodable {
        struct Name: Decodable { let common: String }
        let cca2: String
        let name: Name
        let translations: [String: Name]?
    }
}
