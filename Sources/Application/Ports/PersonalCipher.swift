import Foundation

/// A member's personal-data key: 256 random bits (`PersonalCipher.newKey`), kept by the store
/// outside the log (SQLite: `personal_keys`) and deleted when the member's account closes.
public struct PersonalKey: Equatable, Sendable {
    public let bytes: [UInt8]
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }
}

/// The cryptographic primitives behind personal data: members' keys, authenticated encryption
/// under them, and the keyed digests that name claim streams. What is sealed, and how a box or a
/// stream name is laid out, the codec (`PersonalSeal`) and `ClaimNames` decide.
public protocol PersonalCipher: Sendable {
    /// A fresh random key.
    func newKey() -> PersonalKey
    /// `plaintext` encrypted with `key` and bound to `context` (authenticated, not stored): nonce, ciphertext and tag in one.
    func seal(_ plaintext: Data, with key: PersonalKey, binding context: Data) throws -> Data
    /// What `seal` sealed; throws unless the key and the context are the sealing ones and no byte changed.
    func open(_ sealed: Data, with key: PersonalKey, binding context: Data) throws -> Data
    /// The keyed digest (a MAC) of `message` under `secret`.
    func keyedDigest(of message: Data, secret: [UInt8]) -> [UInt8]
}
