import Domain
import Foundation

/// The texts of one adapter in every language the library speaks: the `Localizable.strings` of
/// its `en.lproj` and `fr.lproj` resources. A key missing in a language is said in English (the
/// consistency test keeps that from happening); a key missing everywhere is shown as itself.
public struct Texts: Sendable {
    private let bundles: [Language: Bundle]
    /// Each language's table, read once: `Bundle.localizedString` asks CoreFoundation every time
    /// (a tenth of an API error's answer). A table that cannot be read this way is asked through its bundle.
    private let tables: [Language: [String: String]]

    /// The texts in `bundle`'s language folders (an adapter passes its `Bundle.module`).
    public init(bundle: Bundle) {
        var bundles: [Language: Bundle] = [:]
        var tables: [Language: [String: String]] = [:]
        for language in Language.allCases {
            if let path = bundle.path(forResource: language.rawValue, ofType: "lproj"), let folder = Bundle(path: path) {
                bundles[language] = folder
                tables[language] = Self.table(folder)
            }
        }
        self.bundles = bundles
        self.tables = tables
    }

    /// The `Localizable.strings` of a language folder as a dictionary (the file is an old-style property list).
    private static func table(_ folder: Bundle) -> [String: String]? {
        guard let url = folder.url(forResource: "Localizable", withExtension: "strings"), let data = try? Data(contentsOf: url),
            let table = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        else { return nil }
        return table
    }

    /// The text for `key` in `language`, its placeholders (`%@`, `%1$@`) replaced by `arguments`.
    public func callAsFunction(_ key: String, in language: Language, _ arguments: String...) -> String {
        text(key, in: language, arguments)
    }

    /// The text for `key` in `language`, its placeholders replaced by `arguments`.
    public func text(_ key: String, in language: Language, _ arguments: [String]) -> String {
        Placeholders.fill(template(key, in: language), with: arguments)
    }

    /// The text for `key` in the plural form `count` takes in `language`: the key's `.one` or
    /// `.other` variant (French says 0 and 1 in the singular).
    public func text(_ key: String, count: Int, in language: Language, _ arguments: [String]) -> String {
        text("\(key).\(language.plural(count))", in: language, arguments)
    }

    /// The raw text for `key` in `language` (English when the language lacks it).
    public func template(_ key: String, in language: Language) -> String {
        if let text = lookup(key, in: language) { return text }
        return lookup(key, in: .standard) ?? key
    }

    /// Whether `language` has its own text for `key`.
    public func has(_ key: String, in language: Language) -> Bool { lookup(key, in: language) != nil }

    private func lookup(_ key: String, in language: Language) -> String? {
        if let table = tables[language] { return table[key] }
        guard let bundle = bundles[language] else { return nil }
        let text = bundle.localizedString(forKey: key, value: Self.missing, table: nil)
        return text == Self.missing ? nil : text
    }

    private static let missing = "\u{1}missing\u{1}"
}

/// `printf`-style placeholders in a text: `%@` (the next argument), `%1$@` (the first), `%%`.
/// Every argument is already a string (numbers and dates are formatted for the language first).
public enum Placeholders {
    /// `template` with each placeholder replaced; a placeholder with no argument is left empty.
    public static func fill(_ template: String, with arguments: [String]) -> String {
        // Bytes, not `contains("%")`, which Foundation answers through CFString (a twentieth of the catalogue page).
        guard template.utf8.contains(UInt8(ascii: "%")) else { return template }
        // UTF-8 bytes, not characters: a placeholder is ASCII, and reading the text character by
        // character (grapheme breaking) was a tenth of the catalogue page.
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + arguments.reduce(0) { $0 + $1.utf8.count })
        var next = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "%") else {
                result.append(byte)
                continue
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "%") {
                result.append(byte)
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
            if end > index, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "$"), bytes[end + 1] == UInt8(ascii: "@"),
                let position = Int(String(decoding: bytes[index..<end], as: UTF8.self))
            {
                result += argument(position - 1, arguments).utf8
                index = end + 2
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "@") {
                result += argument(next, arguments).utf8
                next += 1
                index += 1
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The placeholders of `template`, as positions (`%@` counted in order), for the consistency test.
    public static func positions(in template: String) -> [Int] {
        var positions: [Int] = []
        var next = 1
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" {
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix("$@"), let position = Int(digits) {
                positions.append(position)
                rest = rest.dropFirst(digits.count + 2)
            } else if rest.first == "@" {
                positions.append(next)
                next += 1
                rest = rest.dropFirst()
            }
        }
        return positions.sorted()
    }

    private static func argument(_ index: Int, _ arguments: [String]) -> String {
        arguments.indices.contains(index) ? arguments[index] : ""
    }
}
