import Application
import Crypto
import Domain
import Foundation

/// One-time reset codes: 12 symbols of Crockford's base32 from the system's generator (60 bits),
/// stored only as the SHA-256 digest of their normalised form.
public struct RandomResetCodes: ResetCodes {
    public init() {}

    public func issue() -> (code: String, digest: String) {
        var generator = SystemRandomNumberGenerator()
        let symbols = (0..<ResetCode.length).map { _ in Int.random(in: 0..<ResetCode.alphabet.count, using: &generator) }
        let code = ResetCode.format(symbols)
        return (code, digest(ResetCode.normalized(code) ?? code))
    }

    public func digest(_ normalizedCode: String) -> String {
        HexText.lowercase(SHA256.hash(data: Data(normalizedCode.utf8)))
    }
}
