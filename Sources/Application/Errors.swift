import Domain

/// Something named by id does not exist (or no longer does, or is not the caller's to know of).
public struct NotFound: MessageConvertible, Equatable, Sendable {
    /// The kinds of thing a caller names by id.
    public enum Thing: String, Equatable, Sendable, CaseIterable {
        case book, loan, user, notice, stream, hold
        /// An Open Library work (`OL27448W`).
        case work
        /// An Open Library edition, by ISBN.
        case edition
    }

    /// What kind of thing.
    public let thing: Thing
    /// The id as the caller gave it.
    public let id: String
    public init(_ thing: Thing, _ id: String) {
        self.thing = thing
        self.id = id
    }
    /// Transitional, for callers not yet converted: the kind by name.
    @available(*, deprecated, message: "name a NotFound.Thing")
    public init(_ kind: String, _ id: String) {
        self.init(Thing(rawValue: kind) ?? (kind.hasSuffix("edition") ? .edition : kind.hasSuffix("work") ? .work : .book), id)
    }

    public var message: Message { .notFound(thing, id: id) }
}

/// Input that is not valid before any rule is asked, such as a query parameter out of range.
public struct InvalidInput: MessageConvertible, Equatable, Sendable {
    public let errors: [FieldError]
    public init(_ errors: [FieldError]) { self.errors = errors }
    public init(_ field: String, _ problem: FieldProblem) { self.errors = [FieldError(field, problem)] }
    /// Transitional, for callers not yet converted: a text not in the catalogue.
    @available(*, deprecated, message: "name a FieldProblem; the catalogue words it")
    public init(_ field: String, _ message: String) { self.errors = [FieldError(field, .unworded(message))] }
    public var message: Message { .invalidInput(errors) }
}

/// A command kept meeting concurrent changes and gave up; retrying later may succeed.
public struct TooMuchContention: MessageConvertible, Equatable, Sendable {
    public let attempts: Int
    public init(attempts: Int) { self.attempts = attempts }
    public var message: Message { .contention }
}

/// A setting (environment variable or option) that cannot be used, said in one line; the
/// command line exits with status 2 on it, before anything is served or changed.
public struct ConfigurationError: MessageConvertible, Equatable, Sendable {
    /// The setting's name (`SHELFMARK_PORT`, `--port`).
    public let setting: String
    /// The value given, as given (shortened), when one was.
    public let value: String?
    public let problem: FieldProblem
    public init(_ setting: String, value: String? = nil, _ problem: FieldProblem) {
        self.setting = setting
        self.value = value.map { String($0.prefix(40)) }
        self.problem = problem
    }
    /// Transitional, for callers not yet converted: a text not in the catalogue.
    @available(*, deprecated, message: "name the setting and a FieldProblem")
    public init(_ description: String) { self.init("", .unworded(description)) }
    public var message: Message { .badSetting(setting, value: value, problem) }
}
