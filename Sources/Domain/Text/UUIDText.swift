import Foundation

/// UUIDs to and from their canonical 36-character text without going through `sscanf` and
/// `lowercased()`: ids are formatted and parsed for every event and read-model row.
public enum UUIDText {
    private static let hex = Array("0123456789abcdef".utf8)
    private static let dashes: Set<Int> = [8, 13, 18, 23]

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
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        var high: UInt8?
        for (index, character) in utf8.enumerated() {
            if dashes.contains(index) {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = value(character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
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
