/// The country list and the default country of a signup form.
public struct CountryUseCases: Sendable {
    let countries: any CountryDirectory
    let geolocator: any IPGeolocator

    /// One page of the countries, sorted by English name (a short list, held whole by the directory).
    public func list(page: PageRequest = .first) async throws -> Page<Country> { Page(slicing: try await countries.all(), page) }

    /// The country of the client's address, else the region of its first language with one
    /// (`fr-CA` gives CA), else nil. Only codes the directory knows are given.
    public func defaultCountry(clientIP: String?, acceptLanguage: String?) async throws -> Country? {
        if let ip = clientIP, let code = await geolocator.country(for: ip), let country = try await countries.country(code) {
            return country
        }
        for range in (acceptLanguage ?? "").split(separator: ",") {
            let tag = range.split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
            let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" })
            guard let region = parts.dropFirst().first(where: { $0.count == 2 && $0.allSatisfy(\.isLetter) }) else { continue }
            if let country = try await countries.country(String(region)) { return country }
        }
        return nil
    }
}
