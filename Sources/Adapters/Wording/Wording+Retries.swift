import Application
import Domain

extension Wording {
    /// Why a request sent with an `Idempotency-Key` was not run.
    func retry(_ trouble: RetryTrouble) -> String {
        switch trouble {
        case .badKey: t("message.retry.badKey")
        case .keyReused: t("message.retry.keyReused")
        case .inProgress: t("message.retry.inProgress")
        case .answerNotKept(let recordedAt): t("message.retry.answerNotKept", formats.moment(recordedAt))
        }
    }
}
