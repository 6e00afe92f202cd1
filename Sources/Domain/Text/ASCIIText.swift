/// What Unicode's rules come to for text in ASCII, byte by byte: the fast paths of the sort and
/// walk-in keys, which tests check against Foundation's folding.
enum ASCIIText {
    /// Whether every byte of `text` is ASCII.
    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// Unicode's white space within ASCII: the space and U+0009–U+000D.
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Case folding within ASCII: A–Z to a–z, every other byte as it is.
    static func folded(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte }
}
