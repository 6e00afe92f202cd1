/// A library card's number: ten digits, short enough to read out and type at the desk, shown in
/// two groups of five (`27410 38514`). The first eight are the card's serial, drawn at random
/// when the card is issued; the last two are ISO 7064 MOD 97-10 check digits, as an IBAN has:
/// the ten digits read as one number leave 1 when divided by 97. Since 97 is a prime larger
/// than any digit's difference, that catches every single mistyped digit, every two digits
/// swapped, next to each other or one apart, and all but about 1 in 97 of any other slip, so a
/// mistyped card is refused before anything is looked up (Luhn misses `09` typed as `90`).
public struct CardNumber: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How many serials there are: the random part is a number below this.
    public static let serials = 100_000_000
    /// Digits in a card number, check digits included.
    public static let length = 10

    /// The ten digits, no separators.
    public let digits: String

    /// Why a text is not a card number.
    public enum Problem: Error, Equatable, Sendable {
        /// Not ten digits: this many.
        case wrongLength(Int)
        /// A character that is not a digit (spaces and hyphens between digits are fine).
        case invalidCharacter(Character)
        /// The check digits do not match the others: a digit was mistyped.
        case wrongCheckDigits
    }

    /// The card with this serial (`0..<serials`), its check digits computed.
    public init(serial: Int) {
        let serial = ((serial % Self.serials) + Self.serials) % Self.serials
        let body = Self.padded(serial, to: Self.length - 2)
        digits = body + Self.padded(98 - Int((Int64(serial) * 100) % 97), to: 2)
    }

    /// A card number as typed or scanned: ten digits, with or without spaces and hyphens between
    /// them; its check digits are verified.
    public init(parsing text: String) throws(Problem) {
        let characters = text.trimmingWhitespace().filter { !$0.isWhitespace && $0 != "-" }
        if let stray = characters.first(where: { !($0.isASCII && $0.isWholeNumber) }) { throw .invalidCharacter(stray) }
        guard characters.count == Self.length else { throw .wrongLength(characters.count) }
        guard let number = Int64(characters), number % 97 == 1 else { throw .wrongCheckDigits }
        digits = characters
    }

    /// Whether what was typed is meant as a card number (digits, with spaces or hyphens between
    /// them), whether or not its check digits hold.
    public static func isMeant(_ text: String) -> Bool {
        let kept = text.trimmingWhitespace()
        return kept.contains(where: \.isWholeNumber) && kept.allSatisfy { $0.isWholeNumber || $0.isWhitespace || $0 == "-" }
    }

    /// The random part, without the check digits.
    public var serial: Int { Int(digits.prefix(Self.length - 2)) ?? 0 }

    /// As printed on the card: two groups of five digits.
    public var grouped: String { "\(digits.prefix(5)) \(digits.suffix(5))" }

    public var description: String { digits }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try CardNumber(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a card number"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(digits)
    }

    private static func padded(_ value: Int, to width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
