import Domain

/// The words for every `Message`, in one language. The domain and the use cases say what happened
/// as values; an adapter (Wording) words them from its texts in each language the library speaks.
public protocol MessageCatalogue: Sendable {
    /// The message, said in full.
    func text(_ message: Message) -> String
    /// What is wrong with one field, said to follow the field's name.
    func text(_ problem: FieldProblem) -> String
    /// One field error: its name and its problem, joined as the language joins them.
    func text(_ error: FieldError) -> String
    /// What a command did.
    func text(_ confirmation: Confirmation) -> String
}

extension MessageCatalogue {
    /// An error's message, or nil when it has none a person should read (a fault: logged, not told).
    public func text(of error: any Error) -> String? { (error as? any MessageConvertible).map { text($0.message) } }
}

/// An error a person may read: the message that says it, in any catalogue.
public protocol MessageConvertible: Error, CustomStringConvertible {
    /// What the error says, as a value the catalogue words.
    var message: Message { get }
}

extension MessageConvertible {
    /// The message as a value (`noCopyAvailable(…)`), for logs and test failures: words are the
    /// adapters' to choose, in the reader's language.
    public var description: String { "\(message)" }
}
