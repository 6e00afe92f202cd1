import Application
import Domain

extension Wording {
    /// The message, said in full.
    public func text(_ message: Message) -> String { English().text(message) }
}
