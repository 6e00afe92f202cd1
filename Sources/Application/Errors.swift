import Domain

/// Something named by id does not exist (or no longer does).
public struct NotFound: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of thing: `book`.
    public let kind: String
    /// The id as the caller gave it.
    public let id: String
    public init(_ kind: String, _ id: String) {
        self.kind = kind
        self.id = id
    }
    public var description: String { "no \(kind) with id '\(id)'" }
}

/// Input that is not valid before any rule is asked, such as a query parameter out of range.
public struct InvalidInput: Error, Equatable, Sendable, CustomStringConvertible {
    public let errors: [FieldError]
    public init(_ errors: [FieldError]) { self.errors = errors }
    public init(_ field: String, _ message: String) { self.errors = [FieldError(field, message)] }
    public var description: String { errors.map(\.description).joined(separator: "; ") }
}

/// A command kept meeting concurrent changes and gave up; retrying later may succeed.
public struct TooMuchContention: Error, Equatable, Sendable, CustomStringConvertible {
    public let attempts: Int
    public init(attempts: Int) { self.attempts = attempts }
    public var description: String { "the data changed under this request \(attempts) times; try again" }
}

/// A setting (environment variable or option) that cannot be used, said in one line; the
/// command line exits with status 2 on it, before anything is served or changed.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
