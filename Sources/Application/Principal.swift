import Domain

/// Who asks for a use case to run. Authorisation rules read it; metadata records it.
public enum Principal: Equatable, Sendable {
    /// Whoever runs the CLI on the database file: owns the library's data.
    case cliOperator
    /// A caller who has not identified itself.
    case anonymous
    /// The server's own scheduled work, such as the overdue scanner.
    case system
    /// A logged-in member or librarian, through one session.
    case user(UserID, Role, SessionID)

    /// How the log records this principal.
    public var actor: String {
        switch self {
        case .cliOperator: "operator"
        case .anonymous: "anonymous"
        case .system: "system"
        case .user(let id, _, _): "user:\(id)"
        }
    }
}

/// The caller must log in (or its session expired or was revoked).
public struct Unauthenticated: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .unauthenticated }
}

/// The caller is known but may not do this.
public struct Forbidden: MessageConvertible, Equatable, Sendable {
    /// Why not.
    public enum Reason: Equatable, Sendable, CaseIterable {
        /// The operation is a librarian's.
        case librarianOnly
        /// Only the operator, on the command line without a session, may have the secrets (an export's).
        case operatorOnly
    }

    public let reason: Reason
    public init(_ reason: Reason) { self.reason = reason }
    public var message: Message { .forbidden(reason) }
}
