import Application
import AsyncHTTPClient
import Foundation
import NIOCore

/// Geolocation through IPinfo: `GET {base}/{ip}/json` (token optional), reading `country`.
/// Private, loopback, link-local and other bogon addresses never leave the machine, and any
/// failure (timeout, error status, garbage) is "unknown", never an error.
public struct IPinfoGeolocator: IPGeolocator {
    let baseURL: String
    let token: String?
    let client: HTTPClient
    let timeout: TimeAmount

    public init(
        baseURL: String = "https://ipinfo.io", token: String? = nil, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(2)
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.client = client
        self.timeout = timeout
    }

    public func country(for ip: String) async -> String? {
        guard let address = IPAddress(ip), address.isPublic else { return nil }
        let (client, timeout, request) = (client, timeout, request(address))
        do {
            // The limit holds the body too: AsyncHTTPClient's own deadline ends at the response's head.
            let (status, body) = try await withTimeLimit(.nanoseconds(timeout.nanoseconds)) {
                let response = try await client.execute(request, timeout: timeout)
                return (response.status, try await response.body.collect(upTo: 64 << 10))
            }
            guard status == .ok else { return nil }
            let answer = try JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView))
            guard answer.bogon != true, let country = answer.country, country.count == 2 else { return nil }
            return country.uppercased()
        } catch {
            return nil
        }
    }

    private func request(_ address: IPAddress) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "\(baseURL)/\(address.text)/json")
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return request
    }

    private struct Answer: Decodable {
        let country: String?
        let bogon: Bool?
    }
}
