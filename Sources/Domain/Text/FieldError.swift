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
}
