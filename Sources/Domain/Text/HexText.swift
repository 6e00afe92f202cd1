/// Bytes as lower-case hexadecimal text (`0a1b…`), the one writing of digests, keys and ids
/// made of bytes. Without Foundation's `String(format: "%02x")`: a session token's digest took
/// 32 of them on every signed-in request (issue 20).
public enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lower-case hex digits a byte.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
