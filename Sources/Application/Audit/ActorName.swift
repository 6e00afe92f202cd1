import Domain

/// Who did something or whom a view names, as a person reads it (the catalogue words it).
public enum ActorName: Equatable, Sendable {
    /// An account: its display name and email address now.
    case member(name: String, email: String)
    /// An account that was closed and its personal data erased.
    case erasedMember
    /// An account the accounts read model does not know.
    case unknownMember
    /// Whoever runs the command line on the database file, without a session.
    case cliOperator
    /// The server's own scheduled work (the notice scanner).
    case system
    /// Someone not logged in (a signup).
    case anonymous
}
