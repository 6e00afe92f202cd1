import Foundation
import HTTPTypes

/// Who may read `GET /metrics`: a peer on this machine (a loopback address) that no proxy forwarded,
/// or, when a token is set, anyone who sends it as `Authorization: Bearer <token>`.
public struct MetricsAccess: Sendable {
    /// The shortest token accepted (`SHELFMARK_METRICS_TOKEN`).
    public static let shortestToken = 16
    let token: [UInt8]?

    /// `token`: nil, loopback peers only.
    public init(token: String?) { self.token = token.map { Array($0.utf8) } }

    /// Whether a request from `peer` (an IP address) with these headers may read the metrics. An
    /// `Authorization` sent is checked whoever sends it: only `Bearer` and the token pass (anything
    /// else is refused, even from loopback). A request bearing `X-Forwarded-For`, `Forwarded` or
    /// `X-Real-IP` came through a proxy: whoever sent it is not known to be on this machine, even
    /// when the proxy is.
    public func allows(peer: String?, headers: HTTPFields) -> Bool {
        if let authorization = headers[.authorization] {
            guard let token, let sent = Self.bearer(authorization) else { return false }
            return Self.same(Array(sent.utf8), token)
        }
        guard let peer, Self.isLoopback(peer) else { return false }
        return Self.forwardingHeaders.allSatisfy { headers[$0] == nil }
    }

    static let forwardingHeaders: [HTTPField.Name] = [
        HTTPField.Name("X-Forwarded-For")!, HTTPField.Name("Forwarded")!, HTTPField.Name("X-Real-IP")!,
    ]

    /// The token of an `Authorization: Bearer <token>` value, or nil for another scheme.
    static func bearer(_ value: String) -> Substring? {
        guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
        return value.dropFirst(7)
    }

    /// Compares in a time that depends on the lengths only, never on where the bytes first differ.
    static func same(_ sent: [UInt8], _ token: [UInt8]) -> Bool {
        var difference = UInt8(sent.count == token.count ? 0 : 1)
        for index in 0..<max(sent.count, token.count) {
            let a = index < sent.count ? sent[index] : 0
            let b = index < token.count ? token[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }

    /// 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv6 address (::ffff:127.x.y.z).
    static func isLoopback(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
        return loopback || mapped
    }
}
