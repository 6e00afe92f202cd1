// The Inbox aggregate, one stream per member: which notices the member has read.

public enum InboxEvent: Equatable, Sendable {
    case noticesRead(NoticesRead)
}

/// How the log stores each case: its name, written once here, and its payload.
extension InboxEvent: StoredEvent {
    /// The stored names: the log's format, never renamed or reused.
    public enum StoredType: String, CaseIterable, Sendable {
        case noticesRead = "inbox.notices-read.v1"
    }

    public var stored: (type: StoredType, payload: any Encodable & Sendable) {
        switch self {
        case .noticesRead(let e): (.noticesRead, e)
        }
    }

    public static func decode(_ type: StoredType, _ payload: some PayloadDecoder) throws -> InboxEvent {
        switch type {
        case .noticesRead: .noticesRead(try payload.decode())
        }
    }
}

/// The member read these notices (ids as the notices read model gives them: `<loan>:<kind>`, or
/// `<loan>:<kind>@<due date>` for a notice issued again after a renewal).
public struct NoticesRead: Equatable, Sendable, Codable {
    public let member: UserID
    public let notices: [String]
    public init(member: UserID, notices: [String]) {
        self.member = member
        self.notices = notices
    }
}

public enum InboxAggregate: Aggregate {
    public typealias Rejection = Never
    public static let initial: Set<String> = []

    public static func evolve(_ state: Set<String>, _ event: InboxEvent) -> Set<String> {
        guard case .noticesRead(let e) = event else { return state }
        return state.union(e.notices)
    }

    /// Marks notices read; those read before are left out, so reading twice decides nothing.
    public static func decide(_ command: (member: UserID, notices: [String]), _ state: Set<String>) -> [InboxEvent] {
        var seen = state
        let unread = command.notices.filter { seen.insert($0).inserted }
        return unread.isEmpty ? [] : [.noticesRead(NoticesRead(member: command.member, notices: unread))]
    }
}

extension NoticeIssued {
    /// The id of the loan's first notice of its kind (the read model tells a later one, for a new due date, apart).
    public var id: String { "\(loan):\(kind.rawValue)" }
}
