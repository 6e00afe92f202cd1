/// A verified ISBN, always held in its ISBN-13 form.
public struct ISBN: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 13 digits, no separators.
    public let isbn13: String

    /// Why a text is not an ISBN.
    public enum Problem: Error, Equatable, Sendable {
        case wrongLength(Int)
        case invalidCharacter(Character)
        case wrongCheckDigit
        case unknownPrefix
    }

    /// Accepts ISBN-10 or ISBN-13, with or without hyphens and spaces and an "ISBN" label as
    /// printed on books ("ISBN 0-441-17271-7", "ISBN-13: 978…"), and verifies the check digit.
    public init(parsing text: String) throws(Problem) {
        let characters = Self.unlabelled(text).filter { $0 != "-" && $0 != " " }
        // Characters first: "ISBN? 0441172717" has a stray character, not a length of 14.
        if let stray = characters.first(where: { !($0.isASCII && ($0.isWholeNumber || $0 == "X" || $0 == "x")) }) {
            throw .invalidCharacter(stray)
        }
        let compact = Array(characters.uppercased())
        switch compact.count {
        case 10: isbn13 = try Self.fromISBN10(compact)
        case 13: isbn13 = try Self.fromISBN13(compact)
        default: throw .wrongLength(compact.count)
        }
    }

    /// The ISBN-10 form, for books in the 978 range; nil otherwise.
    public var isbn10: String? {
        guard isbn13.hasPrefix("978") else { return nil }
        let body = Array(isbn13.dropFirst(3).prefix(9))
        let sum = body.enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element.wholeNumberValue! }
        let check = (11 - sum % 11) % 11
        return String(body) + (check == 10 ? "X" : String(check))
    }

    public var description: String { isbn13 }

    private static func fromISBN10(_ chars: [Character]) throws(Problem) -> String {
        var sum = 0
        for (index, char) in chars.enumerated() {
            let value: Int
            if let digit = char.wholeNumberValue, char.isASCII {
                value = digit
            } else if char == "X" && index == 9 {
                value = 10
            } else {
                throw .invalidCharacter(char)
            }
            sum += (10 - index) * value
        }
        guard sum % 11 == 0 else { throw .wrongCheckDigit }
        let body = "978" + String(chars.prefix(9))
        return body + String(checkDigit13(Array(body)))
    }

    private static func fromISBN13(_ chars: [Character]) throws(Problem) -> String {
        for char in chars where !(char.isASCII && char.isWholeNumber) { throw .invalidCharacter(char) }
        let text = String(chars)
        guard text.hasPrefix("978") || text.hasPrefix("979") else { throw .unknownPrefix }
        guard checkDigit13(Array(chars.prefix(12))) == chars[12].wholeNumberValue! else { throw .wrongCheckDigit }
        return text
    }

    /// `text` without a leading "ISBN", "ISBN-10" or "ISBN-13" label and its colon, any case.
    static func unlabelled(_ text: String) -> Substring {
        var rest = Substring(text.trimmingWhitespace())
        guard rest.prefix(4).uppercased() == "ISBN" else { return rest }
        rest = rest.dropFirst(4)
        for suffix in ["-13", "-10", "13", "10"] where rest.hasPrefix(suffix) {
            rest = rest.dropFirst(suffix.count)
            break
        }
        if rest.hasPrefix(":") { rest = rest.dropFirst() }
        return rest
    }

    /// The EAN-13 check digit of twelve digits (weights 1, 3, 1, 3, ...).
    private static func checkDigit13(_ twelve: [Character]) -> Int {
        let sum = twelve.enumerated().reduce(0) { $0 + ($1.offset.isMultiple(of: 2) ? 1 : 3) * $1.element.wholeNumberValue! }
        return (10 - sum % 10) % 10
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISBN: \(text)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(isbn13)
    }
}
