import Foundation

/// An email address that passed a practical syntax check, trimmed, in Unicode's composed form
/// (NFC) and case-folded: one address has one spelling, so `zoë` typed with a combining
/// diaeresis and `ZOË` are the same account, never two.
public struct EmailAddress: Hashable, Sendable, Codable, CustomStringConvertible {
    public static let maxLength = 254
    public let value: String

    /// Checks one `@`, a non-empty local part, a domain with a dot, no spaces, control or
    /// invisible format characters, at most 254 characters and 254 octets (as mail servers count).
    public init(parsing raw: String) throws(FieldError) {
        let email = Self.normalized(raw.trimmingWhitespace())
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard !email.isEmpty else { throw FieldError("email", .required) }
        guard email.utf8.count <= Self.maxLength else { throw FieldError("email", .tooLong(max: Self.maxLength)) }
        guard !email.contains(where: \.isWhitespace) else { throw FieldError("email", .containsSpaces) }
        // The address names its event stream: a NUL would cut the stream id short where it is stored.
        if let problem = FreeText.problem(email, field: "email", identifier: true) { throw problem }
        guard parts.count == 2, !parts[0].isEmpty else { throw FieldError("email", .notAnEmailAddress) }
        let domain = parts[1]
        guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..") else {
            throw FieldError("email", .emailDomainWithoutDot)
        }
        value = email
    }

    /// An address read back from where a checked address's `value` was kept (a read model): it was
    /// checked and normalized before it was written, and normalizing again (Foundation's folding)
    /// was a fiftieth of every signed-in request (issue 20).
    public init(checked value: String) { self.value = value }

    /// An address for a new account or an address change: as `init(parsing:)`, well formed
    /// (`wellFormed`: `a..b@` could never receive mail), and refusing characters that have a
    /// plainer twin (fullwidth `ａ`, ligatures such as `ﬁ`, superscripts), which would make a
    /// second account look like someone else's. Addresses already registered
    /// keep working: only `parsing` is used to find them.
    public init(registering raw: String) throws(FieldError) {
        try self.init(parsing: raw)
        guard Self.wellFormed(value) else { throw FieldError("email", .notAnEmailAddress) }
        guard Self.normalized(value.precomposedStringWithCompatibilityMapping) == value else {
            throw FieldError("email", .lookalikeCharacters)
        }
        // `user@xn--bcher-kva.example` and `user@bücher.example` are one mailbox: only the letters
        // are taken, so one mailbox cannot have two accounts (found by an outside walk).
        guard !value.split(separator: "@").last!.split(separator: ".").contains(where: { $0.hasPrefix("xn--") }) else {
            throw FieldError("email", .encodedDomain)
        }
    }

    public var description: String { value }

    /// An unquoted address as mail servers take it (RFC 5321's dot-atoms, with any script): the
    /// local part neither starts nor ends with a dot nor holds two in a row, nor any character it
    /// may only hold in quotes; each label of the domain is letters, digits and inner hyphens.
    /// `email` holds one `@` between non-empty parts (`init(parsing:)` checked it).
    static func wellFormed(_ email: String) -> Bool {
        let parts = email.split(separator: "@")
        guard parts.count == 2 else { return false }
        let (local, domain) = (parts[0], parts[1])
        guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
            !local.contains(where: { "\"(),:;<>[\\]".contains($0) })
        else { return false }
        return domain.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                && !label.contains { $0.isASCII && !($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// NFC, then Unicode case folding (`ß` → `ss`), then NFC again since folding may decompose.
    static func normalized(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

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
