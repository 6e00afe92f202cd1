import Domain

/// The words for every `Message`, in one language. English is the one there is; another
/// language is one more type conforming to this, and `Catalogues.preferred` picks it.
public protocol MessageCatalogue: Sendable {
    /// The message, said in full.
    func text(_ message: Message) -> String
    /// What is wrong with one field, said to follow the field's name.
    func text(_ problem: FieldProblem) -> String
    /// What a command did.
    func text(_ confirmation: Confirmation) -> String
}

extension MessageCatalogue {
    /// One field error: its name and its problem.
    public func text(_ error: FieldError) -> String { "\(error.field): \(text(error.problem))" }
    /// An error's message, or nil when it has none a person should read (a fault: logged, not told).
    public func text(of error: any Error) -> String? { (error as? any MessageConvertible).map { text($0.message) } }
}

/// The catalogues there are, and which one a reader gets.
public enum Catalogues {
    /// English.
    public static let english: any MessageCatalogue = English()

    /// The catalogue for a reader who prefers `languages` (language tags, most preferred first, as
    /// an `Accept-Language` header or `LANG` says them); English until another language is added.
    public static func preferred(_ languages: [String] = []) -> any MessageCatalogue { english }
}

/// An error a person may read: the message that says it, in any catalogue.
public protocol MessageConvertible: Error, CustomStringConvertible {
    /// What the error says, as a value the catalogue words.
    var message: Message { get }
}

extension MessageConvertible {
    /// The English text, so logs and `print` read as a person would.
    public var description: String { Catalogues.english.text(message) }
}
