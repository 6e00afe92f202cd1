import Domain
import Foundation

/// The name of one event stream, such as `book-<uuid>`.
///
/// Two names are equal when their UTF-8 bytes are, as the stores compare them: Swift's `String`
/// equality treats canonically equivalent spellings (`ë` and `e` + U+0308) as one, and a cache
/// keyed that way would mix two streams the database keeps apart.
public struct StreamName: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Byte for byte (two spellings of one text are two streams), compared as two buffers.
    public static func == (lhs: StreamName, rhs: StreamName) -> Bool {
        var (left, right) = (lhs.rawValue, rhs.rawValue)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        var text = rawValue
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// What an append expects of a stream's current version (its number of events).
public enum ExpectedVersion: Hashable, Sendable {
    /// The stream must not exist yet.
    case noStream
    /// The stream must have exactly this many events.
    case exactly(Int64)
    /// The stream must have exactly this many events, the last of them this one: an append decided
    /// on another one still on its way to the log (`CommandRunner`'s pending states) is written
    /// only after it, never after other events that brought the stream to the same version (a
    /// conflict whose `actual` is then that version).
    case endingWith(UUID, version: Int64)
    /// No expectation.
    case any
}

/// Who did what, when and why, stored beside every event.
public struct EventMetadata: Equatable, Sendable {
    public let eventID: UUID
    public let recordedAt: Date
    /// `operator`, `anonymous`, or `user:<id>`.
    public let actor: String
    public let correlationID: UUID
    public let causationID: UUID?

    public init(eventID: UUID, recordedAt: Date, actor: String, correlationID: UUID, causationID: UUID? = nil) {
        self.eventID = eventID
        self.recordedAt = recordedAt
        self.actor = actor
        self.correlationID = correlationID
        self.causationID = causationID
    }
}

/// An event about to be appended, with its metadata.
public struct PendingEvent: Equatable, Sendable {
    public let event: DomainEvent
    public let metadata: EventMetadata
    public init(_ event: DomainEvent, _ metadata: EventMetadata) {
        self.event = event
        self.metadata = metadata
    }
}

/// Events for one stream, appended only if the stream is at the expected version.
public struct StreamAppend: Equatable, Sendable {
    public let stream: StreamName
    public let expected: ExpectedVersion
    public let events: [PendingEvent]
    public init(_ stream: StreamName, expected: ExpectedVersion, events: [PendingEvent]) {
        self.stream = stream
        self.expected = expected
        self.events = events
    }
}

/// An event as the log holds it.
public struct RecordedEvent: Equatable, Sendable {
    /// Global position in the log, from 1, without gaps.
    public let position: Int64
    public let stream: StreamName
    /// Version within the stream, from 1, without gaps.
    public let version: Int64
    public let event: DomainEvent
    public let metadata: EventMetadata

    public init(position: Int64, stream: StreamName, version: Int64, event: DomainEvent, metadata: EventMetadata) {
        self.position = position
        self.stream = stream
        self.version = version
        self.event = event
        self.metadata = metadata
    }
}

/// A stream was not at the version an append expected; nothing of that append was written.
public struct AppendConflict: Error, Equatable, Sendable {
    public let stream: StreamName
    public let expected: ExpectedVersion
    public let actual: Int64
    public init(stream: StreamName, expected: ExpectedVersion, actual: Int64) {
        self.stream = stream
        self.expected = expected
        self.actual = actual
    }
}

/// An append held personal data of a member whose account was closed (their key is deleted, and
/// no new one is made for them); nothing of that append was written.
public struct PersonalDataOfErasedMember: Error, Equatable, Sendable, CustomStringConvertible {
    public let member: UserID
    public init(member: UserID) { self.member = member }
    public var description: String { "member \(member) was erased: their personal data can no longer be recorded" }
}

/// The append-only log of every change, with optimistic concurrency per stream.
public protocol EventStore: Sendable {
    /// Appends to every listed stream in one atomic step, or throws `AppendConflict` and writes nothing;
    /// with a `receipt`, records it in the same step, or throws `RequestAlreadyRecorded` (another
    /// attempt holds its key, unexpired) and writes nothing. Returns the global position of the last
    /// event written (the current head when nothing was).
    @discardableResult
    func append(_ appends: [StreamAppend], receipt: RequestReceipt?) async throws -> Int64
    /// The events of one stream after its first `version` events, oldest first; empty for a
    /// stream that does not exist or has no more.
    func read(_ stream: StreamName, after version: Int64) async throws -> [RecordedEvent]
    /// `read` of several streams, each after its own version, as of one moment (one read
    /// transaction where the store has them); the answers in the order asked.
    func read(_ tails: [(stream: StreamName, after: Int64)]) async throws -> [[RecordedEvent]]
    /// Up to `limit` events with a global position greater than `position`, in log order.
    func readAll(after position: Int64, limit: Int) async throws -> [RecordedEvent]
    /// How claim streams are named, with the store's secret kept outside the log.
    var claimNames: ClaimNames { get }
}

extension EventStore {
    /// Appends to every listed stream in one atomic step, or throws `AppendConflict` and writes nothing.
    @discardableResult
    public func append(_ appends: [StreamAppend]) async throws -> Int64 { try await append(appends, receipt: nil) }

    /// Every event of one stream, oldest first; empty for a stream that does not exist.
    public func read(_ stream: StreamName) async throws -> [RecordedEvent] { try await read(stream, after: 0) }

    /// Each stream read on its own, for stores where one read is as cheap as several.
    public func read(_ tails: [(stream: StreamName, after: Int64)]) async throws -> [[RecordedEvent]] {
        var answers: [[RecordedEvent]] = []
        for tail in tails { answers.append(try await read(tail.stream, after: tail.after)) }
        return answers
    }
}

extension ExpectedVersion {
    /// Whether a stream at `actual` events meets this expectation.
    public func isMet(by actual: Int64) -> Bool {
        switch self {
        case .noStream: actual == 0
        case .exactly(let version), .endingWith(_, let version): actual == version
        case .any: true
        }
    }

    /// The event the stream must end with, when the expectation names one.
    public var lastEventID: UUID? {
        if case .endingWith(let id, _) = self { id } else { nil }
    }
}
