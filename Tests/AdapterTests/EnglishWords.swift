import Application
import Wording

extension MessageConvertible {
    /// What the error says in English, as a person reads it (`description` names the value).
    var english: String { Wording.english.text(message) }
}
