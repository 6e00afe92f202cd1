import Domain
import Foundation
import Wording

/// The language the command line speaks: `--lang` when given (it wins), else the locale
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English. Read from the raw arguments before
/// ArgumentParser parses them, so its help and abstracts are already in that language.
enum Speaking {
    /// The language of this run (a `--lang` the library does not speak leaves the locale's, and
    /// `main` refuses the run).
    static let language: Language = (try? choice(CommandLine.arguments, ProcessInfo.processInfo.environment).get()) ?? locale

    /// The locale's language, or English.
    static var locale: Language { Language.fromLocale(ProcessInfo.processInfo.environment) ?? .standard }

    /// The language `arguments` and `environment` choose (`--lang fr`, `--lang=fr-CA`); a failure
    /// names the `--lang` value the library does not speak.
    static func choice(_ arguments: [String], _ environment: [String: String]) -> Result<Language, LanguageRefused> {
        guard let value = langValue(Array(arguments.dropFirst())) else {
            return .success(Language.fromLocale(environment) ?? .standard)
        }
        guard let language = Language(tag: value) else { return .failure(LanguageRefused(value: value)) }
        return .success(language)
    }

    /// The last `--lang X` or `--lang=X` before `--`, if any.
    static func langValue(_ arguments: [String]) -> String? {
        var value: String?
        var rest = arguments.prefix { $0 != "--" }[...]
        while let argument = rest.popFirst() {
            if argument == "--lang" {
                value = rest.popFirst() ?? ""
            } else if argument.hasPrefix("--lang=") {
                value = String(argument.dropFirst("--lang=".count))
            }
        }
        return value
    }

    /// The CLI's own texts, every language.
    static let texts = Texts(bundle: .module)
}

/// A `--lang` value naming a language the library does not speak.
struct LanguageRefused: Error {
    let value: String
}

/// The command line's own text for `key` in the run's language, its placeholders filled with `arguments`.
func t(_ key: String, _ arguments: String...) -> String { Speaking.texts.text(key, in: Speaking.language, arguments) }

/// The text for `key` in the plural form `count` takes (`key.one` or `key.other`).
func t(_ key: String, count: Int, _ arguments: String...) -> String {
    Speaking.texts.text(key, count: count, in: Speaking.language, arguments)
}

/// A count as the run's language writes it (`1,234`, `1 234`).
func number(_ value: some BinaryInteger) -> String { Formats(Speaking.language).number(value) }
