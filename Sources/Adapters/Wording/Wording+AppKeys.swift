import Application
import Domain

extension Wording {
    /// An app key's refusal.
    func appKey(_ problem: AppKeyProblem) -> String {
        switch problem {
        case .notALibrarian(let email): t("message.appKey.notALibrarian", email)
        case .unknownKey: t("message.appKey.unknownKey")
        }
    }

    /// An app request's refusal, in the Prolific apps' terms (their routes, numbers and dates).
    func appRequest(_ problem: AppRequestProblem) -> String {
        switch problem {
        case .noBookNumbered(let number?): t("message.appRequest.noBookNumbered", "\(number)")
        case .noBookNumbered(nil): t("message.appRequest.noBookNumbered.none")
        case .noSuchRoute(let path) where path.isEmpty: t("message.appRequest.noSuchRoute.base")
        case .noSuchRoute(let path): t("message.appRequest.noSuchRoute", String(path.prefix(100)))
        case .formNamesTwice(let name): t("message.appRequest.formNamesTwice", String(name.prefix(100)))
        case .formMalformed: t("message.appRequest.formMalformed")
        case .neitherJSONNorForm: t("message.appRequest.neitherJSONNorForm")
        case .checkoutTimeUnreadable: t("message.appRequest.checkoutTimeUnreadable")
        }
    }
}
