import Application
import Crypto
import Domain
import Foundation

/// 256-bit random tokens (base64url, prefixed `smk_`), stored only as their SHA-256 digest.
public struct RandomSessionTokens: SessionTokens {
    public init() {}

    public func issue() -> (token: String, digest: String) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token =
            "smk_"
            + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return (token, digest(token))
    }

    public func digest(_ token: String) -> String {
        HexText.lowercase(SHA256.hash(data: Data(token.utf8)))
    }
}
