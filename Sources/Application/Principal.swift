/// Who asks for a use case to run. Authorisation rules read it; metadata records it.
public enum Principal: Equatable, Sendable {
    /// Whoever runs the CLI on the database file: owns the library's data.
    case cliOperator
    /// A caller who has not identified itself.
    case anonymous

    /// How the log records this principal.
    public var actor: String {
        switch self {
        case .cliOperator: "operator"
        case .anonymous: "anonymous"
        }
    }
}
