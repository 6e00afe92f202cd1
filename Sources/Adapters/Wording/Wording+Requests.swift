import Application
import Domain

extension Wording {
    /// Why the HTTP transport could not take a request.
    func request(_ trouble: RequestTrouble) -> String {
        switch trouble {
        case .noSuchPath(let path): t("message.request.noSuchPath", String(path.prefix(200)))
        case .methodNotAllowed(let method, let path, let allowed):
            t("message.request.methodNotAllowed", String(path.prefix(200)), String(method.prefix(20)), allowed.joined(separator: ", "))
        case .malformedURL: t("message.request.malformedURL")
        case .notJSON: t("message.request.notJSON")
        case .valueUnreadable: t("message.request.valueUnreadable")
        case .notHTTP: t("message.request.notHTTP")
        case .headersTooLarge: t("message.request.headersTooLarge")
        case .notAnObject: t("message.request.notAnObject")
        case .bodyRequired: t("message.request.bodyRequired")
        case .unsupportedMediaType: t("message.request.unsupportedMediaType")
        case .notAcceptable: t("message.request.notAcceptable")
        case .unreadable: t("message.request.unreadable")
        case .storageUnavailable: t("message.request.storageUnavailable")
        case .badContentLength: t("message.request.badContentLength")
        case .bodyIncomplete: t("message.request.bodyIncomplete")
        case .bodyTooLarge(let max): t("message.request.bodyTooLarge", count: max, n(max))
        case .bodyTooSlow(let seconds): t("message.request.bodyTooSlow", count: Int(clamping: seconds), n(seconds))
        case .duplicateKey(let key): t("message.request.duplicateKey", String(key.prefix(100)))
        case .contentTypes(let count): t("message.request.contentTypes", n(count))
        case .notUTF8(let charset): t("message.request.notUTF8", String(charset.prefix(40)))
        case .contractMissing: t("message.request.contractMissing")
        case .noSuchPage: t("message.request.noSuchPage")
        case .notAForm: t("message.request.notAForm")
        case .formTooLarge(let max): t("message.request.formTooLarge", n(max / 1024))
        case .staleForm: t("message.request.staleForm")
        }
    }
}
