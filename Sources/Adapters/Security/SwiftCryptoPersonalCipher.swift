import Application
import Crypto
import Foundation

/// `PersonalCipher` on swift-crypto: AES-256-GCM with a random 96-bit nonce, a sealed box stored
/// in AES-GCM's combined form (nonce, ciphertext, 128-bit tag), and HMAC-SHA-256 as the keyed
/// digest. Keys come from the system's secure random generator.
public struct SwiftCryptoPersonalCipher: PersonalCipher {
    /// AES-GCM gave no combined form (only a nonce of another size does): nothing was sealed.
    public struct NotSealed: Error {}

    public init() {}

    public func newKey() -> PersonalKey {
        PersonalKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })!
    }

    public func seal(_ plaintext: Data, with key: PersonalKey, binding context: Data) throws -> Data {
        let sealed = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key.bytes), authenticating: context)
        guard let combined = sealed.combined else { throw NotSealed() }
        return combined
    }

    public func open(_ sealed: Data, with key: PersonalKey, binding context: Data) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: SymmetricKey(data: key.bytes), authenticating: context)
    }

    public func keyedDigest(of message: Data, secret: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
    }
}
