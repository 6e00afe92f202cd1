/// One problem with one input field, so a form can show every problem at once.
public struct FieldError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The field's name as clients send it (`title`, `authors[1]`, `copies`).
    public let field: String
    /// What is wrong, in words a person reads.
    public let message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
