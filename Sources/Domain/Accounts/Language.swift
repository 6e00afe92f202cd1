/// A language the library speaks to people in. A member may save one as their preference (an
/// event, like any change); every adapter words its texts in the language its reader chose.
public enum Language: String, CaseIterable, Codable, Equatable, Hashable, Sendable {
    case english = "en"
    case french = "fr"

    /// The language a tag names (`fr`, `fr-CA`, `fr_BE.UTF-8`, `EN`), or nil for one the library
    /// does not speak; only the primary subtag counts.
    public init?(tag: String) {
        let primary = tag.prefix { $0.isLetter }.lowercased()
        guard let language = Language(rawValue: primary) else { return nil }
        self = language
    }

    /// The library's language when nothing chose another.
    public static let standard = Language.english
}
