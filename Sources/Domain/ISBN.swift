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

    /// Accepts ISBN-10 or ISBN-13, with or without hyphens and spaces, and verifies the check digit.
    public init(parsing text: String) throws(Problem) {
        let compact = Array(text.filter { $0 != "-" && $0 != " " }.uppercased())
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

extension ISBN.Problem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .wrongLength(let count): "must have 10 or 13 digits, not \(count)"
        case .invalidCharacter(let char): "contains '\(char)', which is not a digit"
        case .wrongCheckDigit: "has a wrong check digit"
        case .unknownPrefix: "an ISBN-13 starts with 978 or 979"
        }
    }
}
