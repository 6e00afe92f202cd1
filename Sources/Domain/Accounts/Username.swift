import Foundation

/// A login name chosen by a member, for clients that log in with a name rather than an address
/// (the BitBooks apps). Lower-cased ASCII letters and digits, dots, hyphens and underscores,
/// starting with a letter, 3 to 32 characters: one name has one spelling, never contains `@`
/// (so it can never be read as an email address) and has no look-alike in another script.
public struct Username: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let lengths = 3...32
    public let value: String

    /// Trims and lower-cases `raw`, then checks the rules above.
    public init(parsing raw: String) throws(FieldError) {
        let name = raw.trimmingWhitespace().lowercased()
        guard !name.isEmpty else { throw FieldError("username", .required) }
        guard name.count <= Self.lengths.upperBound else { throw FieldError("username", .tooLong(max: Self.lengths.upperBound)) }
        guard name.count >= Self.lengths.lowerBound else { throw FieldError("username", .tooShort(min: Self.lengths.lowerBound)) }
        guard Self.isAllowed(name) else { throw FieldError("username", .notAUsername) }
        value = name
    }

    /// Whether `name` (lower-cased) starts with a letter and holds only the allowed characters.
    static func isAllowed(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        guard let first = name.first, first.isASCII, first.isLetter else { return false }
        return name.allSatisfy(allowed.contains)
    }

    /// Whether a login (an email address or a username) was typed as a username: it has no `@`.
    public static func looksLikeUsername(_ login: String) -> Bool { !login.contains("@") }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a username: \(text)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
