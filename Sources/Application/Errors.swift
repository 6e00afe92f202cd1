import Domain

/// Something named by id does not exist (or no longer does, or is not the caller's to know of).
public struct NotFound: MessageConvertible, Equatable, Sendable {
    /// The kinds of thing a caller names by id.
    public enum Thing: String, Equatable, Sendable, CaseIterable {
        case book, loan, user, notice, stream, hold
        /// A library card, by its number.
        case card
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

    public var message: Message { .notFound(thing, id: id) }
}

/// Input that is not valid before any rule is asked, such as a query parameter out of range.
public struct InvalidInput: MessageConvertible, Equatable, Sendable {
    public let errors: [FieldError]
    public init(_ errors: [FieldError]) { self.errors = errors }
    public init(_ field: String, _ problem: FieldProblem) { self.errors = [FieldError(field, problem)] }
    public var message: Message { .invalidInput(errors) }
}

/// A command kept meeting concurrent changes and gave up; retrying later may succeed.
public struct TooMuchContention: MessageConvertible, Equatable, Sendable {
    public let attempts: Int
    public init(attempts: Int) { self.attempts = attempts }
    public var message: Message { .contention }
}

/// The library's database did not answer (its server down or out of reach): the request may be
/// sent again in a moment. The store's adapter says so instead of its driver's error.
public struct StoreUnreachable: MessageConvertible, Equatable, Sendable {
    public init() {}
    public var message: Message { .storeUnreachable }
}

/// A setting (environment variable or option) that cannot be used, said in one line; the
/// command line exits with status 2 on it, before anything is served or changed.
public struct ConfigurationError: MessageConvertible, Equatable, Sendable {
    public let message: Message
    /// A setting (`SHELFMARK_LOAN_DAYS`, `LOG_LEVEL`) and what is wrong with the value given
    /// (shortened), when one was.
    public init(_ setting: String, value: String? = nil, _ problem: FieldProblem) {
        message = .badSetting(setting, value: value.map { String($0.prefix(40)) }, problem)
    }
    /// What cannot be used, said as another message (the address `serve` cannot listen on).
    public init(_ message: Message) { self.message = message }
}
