import Application
import Domain
import Foundation

// The field problems said in several parts: a number's range and unit, a value's kind, and why a
// text is not an ISBN or a library card number.

extension Wording {
    func numberOutOfRange(_ min: Double, _ max: Double, whole: Bool, unit: MeasureUnit?) -> String {
        let range =
            whole ? t("field.numberOutOfRange.whole", decimal(min), decimal(max)) : t("field.numberOutOfRange", decimal(min), decimal(max))
        guard let unit else { return range }
        let name =
            switch unit {
            case .days: t("field.unit.days")
            case .seconds: t("field.unit.seconds")
            case .mebibytes: t("field.unit.mebibytes")
            case .perMinuteAndClient: t("field.unit.perMinuteAndClient")
            case .perMinuteAndAccount: t("field.unit.perMinuteAndAccount")
            }
        return t("field.withUnit", range, name)
    }

    func wrongType(_ kind: ValueKind) -> String {
        switch kind {
        case .string: t("field.wrongType.string")
        case .integer: t("field.wrongType.integer")
        case .number: t("field.wrongType.number")
        case .boolean: t("field.wrongType.boolean")
        case .array: t("field.wrongType.array")
        case .object: t("field.wrongType.object")
        case .json: t("field.wrongType.json")
        case .time: t("field.wrongType.time")
        case .id: t("field.wrongType.id")
        }
    }

    func notAnISBN(_ text: String, _ problem: ISBN.Problem) -> String {
        let text = shortened(text)
        return switch problem {
        case .wrongLength(let count): t("field.notAnISBN.wrongLength", text, n(count))
        case .invalidCharacter(let character): t("field.notAnISBN.invalidCharacter", text, FreeText.visible(character))
        case .wrongCheckDigit: t("field.notAnISBN.wrongCheckDigit", text)
        case .unknownPrefix: t("field.notAnISBN.unknownPrefix", text)
        }
    }

    func notACardNumber(_ text: String, _ problem: CardNumber.Problem) -> String {
        let text = shortened(text)
        return switch problem {
        case .wrongLength(let count): t("field.notACardNumber.wrongLength", text, n(count))
        case .invalidCharacter(let character): t("field.notACardNumber.invalidCharacter", text, FreeText.visible(character))
        case .wrongCheckDigits: t("field.notACardNumber.wrongCheckDigits", text)
        }
    }

    /// The first 40 characters of a text someone typed, with "…" when there were more.
    private func shortened(_ text: String) -> String { text.prefix(40) + (text.count > 40 ? "…" : "") }

    /// A bound of a setting's range, as the setting is typed (`3650`, `0.001`) in every language: the
    /// reader copies it into a setting, which reads neither grouping nor a decimal comma.
    private func decimal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
