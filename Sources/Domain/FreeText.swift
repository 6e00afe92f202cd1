/// What every text a person types must be: no control characters.
///
/// No title, name, address or password needs NUL, escape or the like, and they do harm where the
/// text goes: a NUL ends a C string (SQLite's text binding and bcrypt both stop there, so a
/// stored name, a stream id or a hashed password would silently lose the rest), and escape
/// sequences drive the terminal that prints a listing. Line breaks and tabs are allowed where
/// text may span lines.
public enum FreeText {
    public static let message = "must not contain control characters"
    public static let multilineMessage = "must not contain control characters other than line breaks and tabs"

    /// The field error for `text`, or nil when it has no control character (line breaks and tabs
    /// count as none when `multiline`).
    public static func problem(_ text: String, field: String, multiline: Bool = false) -> FieldError? {
        let allowed: Set<Unicode.Scalar> = multiline ? ["\n", "\r", "\t"] : []
        let bad = text.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
        return bad ? FieldError(field, multiline ? multilineMessage : message) : nil
    }
}
