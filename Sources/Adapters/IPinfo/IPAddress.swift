import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address, parsed by the system, with the ranges that must never be geolocated.
struct IPAddress {
    let bytes: [UInt8]
    let text: String

    init?(_ raw: String) {
        let text = raw.trimmingCharacters(in: .whitespaces)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
        self.text = text
    }

    /// False for private, loopback, link-local, shared (CGNAT), documentation, multicast and unspecified addresses.
    var isPublic: Bool {
        if bytes.count == 4 { return Self.isPublicV4(bytes) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return Self.isPublicV4(Array(bytes[12...]))  // IPv4-mapped
        }
        if bytes.allSatisfy({ $0 == 0 }) || bytes == [UInt8](repeating: 0, count: 15) + [1] { return false }  // :: and ::1
        if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return false }  // fe80::/10 link-local
        if bytes[0] & 0xfe == 0xfc { return false }  // fc00::/7 unique local
        if bytes[0] == 0xff { return false }  // multicast
        if bytes[0...3] == [0x20, 0x01, 0x0d, 0xb8] { return false }  // 2001:db8::/32 documentation
        return true
    }

    private static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168): return false
        case (172, 16...31), (100, 64...127): return false
        case (192, 0) where b[2] == 2, (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return false
        case (224...255, _): return false
        default: return true
        }
    }
}
