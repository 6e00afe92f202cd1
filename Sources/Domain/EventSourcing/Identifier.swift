import Foundation

/// A typed identifier: `Identifier<BookTag>` and `Identifier<UserTag>` never mix.
public struct Identifier<Tag>: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The underlying UUID.
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Parses a UUID string in any case; nil when it is not one.
    public init?(_ string: String) {
        guard let uuid = UUIDText.parse(string) else { return nil }
        self.uuid = uuid
    }

    /// Lower-case canonical form, as stored and shown.
    public var description: String { UUIDText.lowercase(uuid) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = Self(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID: \(text)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Tag of book ids.
public enum BookTag {}
/// Identifies a catalogue book (a title record with its copies).
public typealias BookID = Identifier<BookTag>

/// Tag of user ids.
public enum UserTag {}
/// Identifies a member or librarian.
public typealias UserID = Identifier<UserTag>

/// Tag of session ids.
public enum SessionTag {}
/// Identifies one login session (never the secret token itself).
public typealias SessionID = Identifier<SessionTag>

/// Tag of loan ids.
public enum LoanTag {}
/// Identifies one loan of one copy.
public typealias LoanID = Identifier<LoanTag>

/// Tag of hold ids.
public enum HoldTag {}
/// Identifies one member's hold on one book (a place in its waiting list).
public typealias HoldID = Identifier<HoldTag>
