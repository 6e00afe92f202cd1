import Domain
import Wording

/// The pages' own texts (headings, labels, buttons, help), in every language: this target's
/// `en.lproj` and `fr.lproj`. Templates name them by key in double square brackets; Swift code as `t(key)`.
let pageTexts = Texts(bundle: .module)

/// The page text `key` in the reader's language, its placeholders filled with `arguments`.
func t(_ key: String, _ arguments: String...) -> String { pageTexts.text(key, in: Reader.language, arguments) }

/// The page text `key` in the plural form `count` takes in the reader's language (`key.one`, `key.other`).
func t(_ key: String, count: Int, _ arguments: String...) -> String {
    pageTexts.text(key, count: count, in: Reader.language, arguments)
}
