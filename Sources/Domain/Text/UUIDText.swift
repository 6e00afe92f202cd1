import Foundation

/// UUIDs to and from their canonical 36-character text without going through `sscanf` and
/// `lowercased()`: ids are formatted and parsed for every event and read-model row.
public enum UUIDText {
    private static let hex = Array("0123456789abcdef".utf8)

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lower case.
    public static func lowercase(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            var text = [UInt8]()
            text.reserveCapacity(36)
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The UUID in `text` (any case, with dashes in the canonical places); nil otherwise.
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
                var at = 0
                for index in 0..<16 {
                    // Dashes stand before the 5th, 7th, 9th and 11th bytes.
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = value(utf8[at]), let low = value(utf8[at + 1]) else { return false }
                    bytes[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return parsed ? UUID(uuid: uuid) : nil
        }
    }

    private static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
