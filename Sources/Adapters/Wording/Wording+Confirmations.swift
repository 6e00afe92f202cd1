import Application
import Domain

extension Wording {
    /// What a command did.
    public func text(_ confirmation: Confirmation) -> String { English().text(confirmation) }
}
