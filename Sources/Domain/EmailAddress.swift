/// An email address that passed a practical syntax check, trimmed and lower-cased.
public struct EmailAddress: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let maxLength = 254
    public let value: String

    /// Checks one `@`, a non-empty local part, a domain with a dot, no spaces or control characters,
    /// at most 254 characters.
    public init(parsing raw: String) throws(FieldError) {
        let email = raw.trimmingWhitespace().lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard !email.isEmpty else { throw FieldError("email", "is required") }
        guard email.count <= Self.maxLength else { throw FieldError("email", "must be at most \(Self.maxLength) characters") }
        guard !email.contains(where: \.isWhitespace) else { throw FieldError("email", "must not contain spaces") }
        // The address names its event stream: a NUL would cut the stream id short where it is stored.
        if let problem = FreeText.problem(email, field: "email") { throw problem }
        guard parts.count == 2, !parts[0].isEmpty else { throw FieldError("email", "must look like name@example.org") }
        let domain = parts[1]
        guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..") else {
            throw FieldError("email", "must have a domain with a dot, like example.org")
        }
        value = email
    }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an email: \(text)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
