/// One problem with one input field, so a form can show every problem at once.
public struct FieldError: Error, Equatable, Sendable {
    /// The field's name as clients send it (`title`, `authors[1]`, `copies`).
    public let field: String
    /// What is wrong; the message catalogue words it.
    public let problem: FieldProblem

    public init(_ field: String, _ problem: FieldProblem) {
        self.field = field
        self.problem = problem
    }

    /// Transitional, for callers not yet converted: a text not in the catalogue.
    @available(*, deprecated, message: "name a FieldProblem; the catalogue words it")
    public init(_ field: String, _ message: String) {
        self.init(field, .unworded(message))
    }
}
