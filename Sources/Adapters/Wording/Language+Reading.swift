import Domain
import Foundation

extension Language {
    /// Whether `count` takes the singular: in English only 1; in French 0 and 1 ("0 livre", "1 livre").
    public func isSingular(_ count: Int) -> Bool {
        switch self {
        case .english: count == 1
        case .french: count == 0 || count == 1
        }
    }

    /// `one` or `other`, the plural form `count` takes: the suffix of a text's key with variants
    /// (`copiesOnLoan.one`, `copiesOnLoan.other`).
    public func plural(_ count: Int) -> String { isSingular(count) ? "one" : "other" }

    /// The locale its numbers and dates are written in.
    public var locale: Locale { Locale(identifier: self == .french ? "fr_FR" : "en_US") }

    /// The language of a reader whose `Accept-Language` header is `header`: the supported language
    /// with the highest `q` (the first on a tie; `fr-CA`, `fr-BE` are French), or nil when it names
    /// none. Only the header's first 64 entries are read, so a huge header costs little.
    public static func negotiate(acceptLanguage header: String) -> Language? {
        var best: (language: Language, q: Double)?
        for entry in header.utf8.prefix(4_096).split(separator: UInt8(ascii: ",")).prefix(64) {
            let parts = String(decoding: entry, as: UTF8.self).split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces), let language = Language(tag: tag) else { continue }
            let q = parts.dropFirst().lazy.compactMap(quality).first ?? 1
            guard q > 0 else { continue }
            if best == nil || q > best!.q { best = (language, q) }
        }
        return best?.language
    }

    /// The language of a reader whose `Accept-Language` header is `header`: the one it prefers
    /// among those the library speaks, else English (no header, or none it speaks).
    public static func reading(acceptLanguage header: String?) -> Language {
        header.flatMap(negotiate(acceptLanguage:)) ?? .standard
    }

    /// The `q` of one parameter (`q=0.8`), or nil when it is another parameter or unreadable.
    private static func quality(_ parameter: Substring) -> Double? {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2, pair[0].lowercased() == "q", let q = Double(pair[1]), (0...1).contains(q) else { return nil }
        return q
    }

    /// The language POSIX locale settings name: the first set of `LC_ALL`, `LC_MESSAGES`, `LANG`
    /// (`fr_FR.UTF-8` is French; `C` and `POSIX` are English), or nil when none names one the
    /// library speaks.
    public static func fromLocale(_ environment: [String: String]) -> Language? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            if value == "C" || value == "POSIX" || value.hasPrefix("C.") { return .english }
            return Language(tag: value)
        }
        return nil
    }
}
