import Crypto
import Foundation

/// The token a form carries against cross-site request forgery: derived from the browser's
/// secret (its session token, or its visitor cookie before login), so another session's token,
/// or one made up, does not match. A page of another site cannot read the cookie it comes from.
enum FormToken {
    /// The token for forms of the browser holding `secret`.
    static func token(for secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("shelfmark form".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return base64URL(Data(mac))
    }

    /// Whether `sent` is the token of `secret`, compared in constant time.
    static func matches(_ sent: String?, secret: String?) -> Bool {
        guard let sent, let secret else { return false }
        let expected = Array(token(for: secret).utf8)
        let given = Array(sent.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A new random visitor secret: 32 bytes, base64url.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = Data(capacity: 32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return base64URL(bytes)
    }

    /// `data` in base64url without padding, in one pass over the bytes (three `replacingOccurrences`
    /// went through Foundation's string search: a twentieth of a page for a new visitor).
    static func base64URL(_ data: Data) -> String {
        String(
            decoding: data.base64EncodedString().utf8.compactMap { byte -> UInt8? in
                switch byte {
                case UInt8(ascii: "+"): UInt8(ascii: "-")
                case UInt8(ascii: "/"): UInt8(ascii: "_")
                case UInt8(ascii: "="): nil
                default: byte
                }
            }, as: UTF8.self)
    }
}
