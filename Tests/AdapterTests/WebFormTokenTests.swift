import Foundation
import Testing

@testable import Web

/// Form tokens and visitor secrets are base64url without padding, written in one pass over the
/// bytes (they were three `replacingOccurrences` through Foundation's string search).
@Suite("Web: form tokens and visitor secrets in base64url")
struct WebFormTokenTests {
    @Test func base64URLIsWhatTheThreeReplacementsMade() {
        for length in 0..<40 {
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + length * 11) })
            let replaced = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(FormToken.base64URL(data) == replaced, "\(length) bytes")
        }
        #expect(FormToken.base64URL(Data([0xFB, 0xFF, 0xBF])) == "-_-_", "+ and / replaced")
        #expect(FormToken.base64URL(Data([0xFF])) == "_w", "no padding")
    }

    @Test func aTokenIsTheHMACOfTheSecretAndASecretIs32RandomBytes() {
        // HMAC-SHA-256(key "secret", "shelfmark form"), base64url, computed apart (Python's hmac module).
        #expect(FormToken.token(for: "secret") == "l6ZNaBKoNO1dziGTeoUkE705LO6X48ryo92o0PF0YDU")
        #expect(FormToken.matches("l6ZNaBKoNO1dziGTeoUkE705LO6X48ryo92o0PF0YDU", secret: "secret"))
        let (one, two) = (FormToken.newSecret(), FormToken.newSecret())
        #expect(one.count == 43 && two.count == 43 && one != two)
        #expect(one.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }
}
