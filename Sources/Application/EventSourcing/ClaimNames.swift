import Domain
import Foundation

/// Names the streams that make a value unique (an email address, a card number) without writing
/// the value: the log keeps stream names in clear for ever, and no key can erase them. A name is a
/// keyed digest of the value (`PersonalCipher.keyedDigest`: HMAC-SHA-256 in the Security adapter,
/// the first 128 bits in hex) with a secret the store keeps outside the log, so only the library
/// holding the secret can find a value's stream.
public struct ClaimNames: Sendable {
    private let secret: [UInt8]
    /// The cipher the digests are made with (safe retries seal their answers with it too).
    let cipher: any PersonalCipher

    public init(secret: [UInt8], cipher: any PersonalCipher) {
        self.secret = secret
        self.cipher = cipher
    }

    /// For stores that keep no secret (test doubles): a fixed key, so anyone can compute these names.
    public static func unkeyed(_ cipher: any PersonalCipher) -> ClaimNames {
        ClaimNames(secret: Array(repeating: 0, count: 32), cipher: cipher)
    }

    /// The stream claiming an address: `email-hmac-<digest>`.
    public func email(_ address: EmailAddress) -> StreamName { StreamName("email-hmac-" + digest("email", address.value)) }

    /// The stream claiming a login name: `username-hmac-<digest>`.
    public func username(_ name: Username) -> StreamName { StreamName("username-hmac-" + digest("username", name.value)) }

    /// The stream claiming a library card number (its digits): `card-hmac-<digest>`.
    public func card(_ digits: String) -> StreamName { StreamName("card-hmac-" + digest("card", digits)) }

    /// A stream's name as a keyed digest: how the store remembers an erased member's legacy
    /// stream (named by their address) without writing the address again.
    public func digest(of stream: StreamName) -> String { digest("stream", stream.rawValue) }

    /// The whole keyed digest of `message` for `purpose` (32 bytes), with the same secret: safe
    /// retries name a caller's key, fingerprint a request and derive its answer's key with it.
    func keyedDigest(_ purpose: String, _ message: Data) -> [UInt8] {
        cipher.keyedDigest(of: Data("shelfmark claim v1\n\(purpose)\n".utf8) + message, secret: secret)
    }

    private func digest(_ purpose: String, _ value: String) -> String {
        let mac = cipher.keyedDigest(of: Data("shelfmark claim v1\n\(purpose)\n\(value)".utf8), secret: secret)
        return HexText.lowercase(mac.prefix(16))
    }
}
