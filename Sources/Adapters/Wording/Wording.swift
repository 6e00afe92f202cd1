import Application
import Domain
import Foundation

/// The library's words for every `Message`, `FieldProblem` and `Confirmation`, in one language:
/// the texts of this target's `Localizable.strings` (`en.lproj`, `fr.lproj`). The domain and the
/// use cases say what happened as values; every driving adapter words them with this.
public struct Wording: MessageCatalogue {
    /// The language it words in.
    public let language: Language

    public init(_ language: Language) { self.language = language }

    /// The words in English (logs, and what an operator reads when no language is chosen).
    public static let english = Wording(.english)

    /// The words of the reader the current task answers (`Reader.language`).
    public static var reader: Wording { Wording(Reader.language) }

    /// This target's texts, every language.
    public static let texts = Texts(bundle: .module)

    /// The text for `key`, its placeholders filled with `arguments`.
    func t(_ key: String, _ arguments: String...) -> String { Self.texts.text(key, in: language, arguments) }

    /// The text for `key` in the plural form `count` takes (`key.one` or `key.other`).
    func t(_ key: String, count: Int, _ arguments: String...) -> String {
        Self.texts.text(key, count: count, in: language, arguments)
    }

    /// Numbers and dates as this language writes them.
    var formats: Formats { Formats(language) }

    /// A count, written for the language (`1,234`, `1 234`).
    func n(_ value: some BinaryInteger) -> String { formats.number(value) }

    /// Several sentences said as one, as the language separates them ("; " in English, " ; " in French).
    public func separated(_ texts: [String]) -> String { texts.joined(separator: t("message.invalidInput.separator")) }
}

/// The language of the person the current task answers: the web and API adapters set it for each
/// request from the reader's choice, the command line from `--lang` or the locale. English when
/// nothing set it.
public enum Reader {
    /// The reader's language in this task and the tasks it starts.
    @TaskLocal public static var language: Language = .standard
}
