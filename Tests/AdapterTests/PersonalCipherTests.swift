import Application
import Domain
import Foundation
import Security
import Testing

/// The Security adapter's `PersonalCipher`: what it seals opens with the same key and context
/// only, and its stored form and digests are the ones already in libraries' logs and stream names
/// (vectors made outside Swift, with Python's `cryptography` and `hmac`).
@Suite("Personal cipher (swift-crypto)")
struct PersonalCipherTests {
    let cipher = SwiftCryptoPersonalCipher()
    let plaintext = Data(#"{"displayName":"Ada"}"#.utf8)
    let context = Data("shelfmark personal v1\nuser.registered.v1\nsubject\ndisplayName".utf8)

    @Test func whatItSealsOpensWithTheSameKeyAndContext() throws {
        let key = cipher.newKey()
        let sealed = try cipher.seal(plaintext, with: key, binding: context)
        #expect(sealed.count == 12 + plaintext.count + 16, "nonce, ciphertext, tag")
        #expect(sealed.range(of: plaintext) == nil)
        #expect(try cipher.open(sealed, with: key, binding: context) == plaintext)
        #expect(try cipher.seal(plaintext, with: key, binding: context) != sealed, "a fresh nonce each time")
    }

    @Test func anotherKeyOrContextOrAnyChangedByteOpensNothing() throws {
        let key = cipher.newKey()
        let sealed = try cipher.seal(plaintext, with: key, binding: context)
        #expect(throws: (any Error).self) { try cipher.open(sealed, with: cipher.newKey(), binding: context) }
        #expect(throws: (any Error).self) { try cipher.open(sealed, with: key, binding: context + Data("x".utf8)) }
        for index in [0, 12, sealed.count - 1] {  // nonce, ciphertext, tag
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: (any Error).self) { try cipher.open(tampered, with: key, binding: context) }
        }
        #expect(throws: (any Error).self) { try cipher.open(sealed.prefix(20), with: key, binding: context) }
    }

    @Test func newKeysAre256RandomBits() {
        let keys = (0..<8).map { _ in cipher.newKey() }
        #expect(keys.allSatisfy { $0.bytes.count == 32 } && Set(keys.map(\.bytes)).count == keys.count)
    }

    /// AES-256-GCM, stored as nonce | ciphertext | tag: a box written before the port existed still opens.
    @Test func opensABoxSealedElsewhereInTheStoredForm() throws {
        let key = try #require(PersonalKey(bytes: Array(0..<32)))
        let box = try #require(Data(base64Encoded: "ZGVmZ2hpamtsbW5vMzm6DwqZOv9HLD6Fv0dQ3wOmZyj2mpQR5+llr/LKWRS5qJffzQ=="))
        #expect(try cipher.open(box, with: key, binding: context) == plaintext)
    }

    /// HMAC-SHA-256: claim streams keep the names existing logs hold.
    @Test func keyedDigestsAndClaimNamesAreTheStoredOnes() throws {
        let digest = cipher.keyedDigest(of: Data("message".utf8), secret: Array(0..<32))
        #expect(
            digest.map { String(format: "%02x", $0) }.joined() == "6297b77508a1a30ea4dfadd8f847c31b49aba45de10a79daf721d3f7ec112a24")
        let name = ClaimNames.unkeyed(cipher).email(try EmailAddress(parsing: "ada@example.org"))
        #expect(name.rawValue == "email-hmac-479ff25f46eaf9f5fd032210e83e7883")
    }
}
