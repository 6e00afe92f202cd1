import Application
import Domain

extension Wording {
    /// What is wrong with one field, said to follow the field's name.
    public func text(_ problem: FieldProblem) -> String { English().text(problem) }
}
