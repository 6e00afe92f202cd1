import Application

/// A stored event that cannot be read back (its payload no longer parses, its type is unknown):
/// verify, a replay and the start-up catch-up name it instead of stopping on a decoding error.
/// Anywhere else it is said to people as `Message.logUnreadable`: the database was changed
/// outside Shelfmark.
public struct UnreadableEvent: MessageConvertible, Equatable, Sendable, CustomStringConvertible {
    public let position: Int64
    /// The event's type name, as stored.
    public let type: String
    /// What cannot be read.
    public let part: AuditFinding.EventPart
    public init(position: Int64, type: String, part: AuditFinding.EventPart) {
        self.position = position
        self.type = type
        self.part = part
    }
    public var message: Message { .logUnreadable(position: position, type: type, part: part) }

    /// What `body` reads of the event at `position`; when it cannot, an `UnreadableEvent` naming
    /// that position and `part` (or the type, when the codec knows none by that name). Every read of
    /// the log, on every store, says a changed event this way.
    public static func reading<T>(_ part: AuditFinding.EventPart, of position: Int64, _ type: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch is EventCodec.UnknownEventType {
            throw UnreadableEvent(position: position, type: type, part: .unknownType)
        } catch {
            throw UnreadableEvent(position: position, type: type, part: part)
        }
    }

    /// In English, for logs: "position 2: the payload of book.added.v1 cannot be read".
    public var description: String {
        let problem =
            switch part {
            case .unknownType: "the log holds an event of unknown type '\(type)'"
            case .eventID: "the event id of \(type) cannot be read"
            case .time: "the time of \(type) cannot be read"
            case .correlationID: "the correlation id of \(type) cannot be read"
            case .causationID: "the causation id of \(type) cannot be read"
            case .payload: "the payload of \(type) cannot be read"
            }
        return "position \(position): \(problem)"
    }
}
