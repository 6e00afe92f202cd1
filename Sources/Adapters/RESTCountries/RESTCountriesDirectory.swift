import Application
import AsyncHTTPClient
import Domain
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
        let entries: [Lenient]
        do { entries = try JSONDecoder().decode([Lenient].self, from: Data(answer.body.readableBytesView)) } catch {
            throw CountryListUnavailable(detail: "REST Countries sent something that is not a country list: \(error)")
        }
        let countries = Self.countries(entries.compactMap(\.entry))
        guard !countries.isEmpty else { throw CountryListUnavailable(detail: "REST Countries sent no country it could read") }
        return countries
    }

    /// The countries of a list as REST Countries sent it, kept for good, so read with suspicion
    /// (found by an outside walk: codes `<S` and `ÉÉ` were taken, a later `fr` replaced France,
    /// a direction override reached the terminal, one `"fra": null` lost the whole list): only
    /// two-letter codes A–Z (either case), the first entry of each, names mended (`FreeText.cleaned`); an entry
    /// that is none of that is left out alone.
    static func countries(_ entries: [Entry]) -> [Country] {
        var seen: Set<String> = []
        var countries: [Country] = []
        for entry in entries {
            let code = entry.cca2.uppercased()
            // The code is taken by its first readable entry only (an unreadable one took it, and lost the country).
            guard code.utf8.count == 2, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }),
                let name = entry.name?.common.flatMap({ FreeText.cleaned($0, max: 100) }), seen.insert(code).inserted
            else { continue }
            let french = entry.translations?["fra"]??.common.flatMap { FreeText.cleaned($0, max: 100) }
            countries.append(Country(code: code, name: name, frenchName: french))
        }
        return countries.sorted { $0.name < $1.name }
    }

    struct Entry: Decodable {
        struct Name: Decodable { let common: String? }
        let cca2: String
        let name: Name?
        let translations: [String: Name?]?
    }

    /// An entry, nil when it cannot be read as one.
    struct Lenient: Decodable {
        let entry: Entry?
        init(from decoder: any Decoder) throws { entry = try? Entry(from: decoder) }
    }
}
