import Application
import Wording

/// The tests read a check as the English reader does: its stable name and its finding in words.
extension AuditCheck {
    /// The check's identifier, which is its English name (`hash chain`).
    var name: String { kind.rawValue }
    /// What it found, in English.
    var detail: String { Wording.english.text(finding) }
}
